/// The text of a 4-byte IPv4 or 16-byte IPv6 address, for connecting to it by literal.
struct IPAddressText: Sendable, Equatable {
    /// `a.b.c.d`, or eight colon-separated groups of lowercase hex digits.
    let text: String

    /// Nil for any other length.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            text = bytes.map(String.init).joined(separator: ".")
        case 16:
            text = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        default:
            return nil
        }
    }
}
