import KithTerminal
import Testing

@Suite struct TerminalTextTests {
    @Test func controlsAreShownEscaped() {
        #expect(TerminalText.escaped("a\u{1B}]0;owned\u{07}b") == "a\\u{1B}]0;owned\\u{7}b")
        #expect(TerminalText.escaped("x\ry") == "x\\u{D}y")
        #expect(TerminalText.escaped("one\ntwo") == "one\\u{A}two")
        #expect(TerminalText.escaped("\u{7F}\u{85}\u{9B}") == "\\u{7F}\\u{85}\\u{9B}")
        #expect(TerminalText.escaped("\u{0}\t") == "\\u{0}\\u{9}")
    }

    @Test func bidiControlsAreShownEscaped() {
        for scalar: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = "a" + String(Character(Unicode.Scalar(scalar)!)) + "b"
            #expect(TerminalText.escaped(text) == "a\\u{\(String(scalar, radix: 16, uppercase: true))}b")
        }
    }

    @Test func multilineBodiesKeepLineFeedsIndentedButNeverCarriageReturns() {
        #expect(TerminalText.escaped("one\ntwo\r\nthree", multiline: true) == "one\n    two\\u{D}\n    three")
    }

    @Test func ordinaryTextIsUnchangedAndBackslashesCannotFakeAnEscape() {
        #expect(TerminalText.escaped("Grüße aus 東京 🌏 \"q\"") == "Grüße aus 東京 🌏 \"q\"")
        #expect(TerminalText.escaped("\\u{1B}") == "\\\\u{1B}")
        #expect(TerminalText.escaped("") == "")
    }
}
