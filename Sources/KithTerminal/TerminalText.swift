/// Renders untrusted text (names, post bodies, notes, reasons, file names) for a terminal.
///
/// Rule (docs/FEED-FORMAT.md 11.7): every human-readable print of text that someone else
/// controls goes through ``escaped(_:multiline:)``. C0 controls (U+0000–U+001F), DEL (U+007F),
/// C1 controls (U+0080–U+009F) and the bidi controls U+061C, U+200E, U+200F, U+202A–U+202E and
/// U+2066–U+2069 are shown as visible `\u{XX}` escapes, so no text can move the cursor, retitle
/// the window, clear the screen, forge a line or reorder what follows. A backslash is shown as
/// `\\` so an escape cannot be faked. In a multi-line body a line feed may stay a line break,
/// followed by `indent`; a carriage return is always escaped. `--json` output is never escaped.
public enum TerminalText {
    /// The escaped, printable form of `text`.
    ///
    /// - Parameters:
    ///   - multiline: keep LF as a line break (followed by `indent`); otherwise LF is escaped too.
    ///   - indent: what follows a kept line break.
    public static func escaped(_ text: String, multiline: Bool = false, indent: String = "    ") -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n", multiline {
                out += "\n" + indent
            } else if scalar == "\\" {
                out += "\\\\"
            } else if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True for the scalars that ``escaped(_:multiline:indent:)`` never prints raw.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
