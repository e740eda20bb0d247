/// Byte-level checks shared by the rendezvous identifiers.
enum IdentifierAlphabet {
    /// True when every byte is visible ASCII (`!` through `~`): no spaces, controls or non-ASCII.
    static func isVisibleASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    /// True when every byte is an ASCII letter, digit, `-` or `_`.
    static func isCodeAlphabet(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }

    /// Lowercase hexadecimal of `bytes`.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
