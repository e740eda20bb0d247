import Hummingbird

extension Request {
    /// The body, read up to `limit` bytes: nil when it is longer. Every JSON API of the server reads
    /// its bodies through here, so no handler can buffer an unbounded body.
    func boundedBody(limit: Int) async -> [UInt8]? {
        guard let buffer = try? await body.collect(upTo: limit) else { return nil }
        return Array(buffer.readableBytesView)
    }
}

extension Array where Element == UInt8 {
    /// Whether these bytes are empty or JSON whitespace only (read as `{}`, so the members are
    /// reported missing, as Inviso and ChatSecure did).
    var isBlankJSON: Bool {
        allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
}
