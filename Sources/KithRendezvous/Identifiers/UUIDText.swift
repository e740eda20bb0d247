/// Random version 4 UUIDs as lowercase text, without Foundation.
enum UUIDText {
    /// A random UUID such as `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let hex = Array(IdentifierAlphabet.hex(bytes).utf8)
        var text: [UInt8] = []
        for (index, byte) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
