import KithIdentity

/// How a joiner who never met an invite's creator reaches it: Kith's field 1000 of `InvitePayload`, inside the
/// signed bytes (Convos parsers skip it as an unknown field). docs/INVITES.md, "Joiners who never met the creator".
///
/// It carries the creator's compact contact card (identity and dh keys, a commitment to the full card, a name, a
/// signature) and, when the creator answers strangers through a rendezvous server, that server's URL and the join
/// code the creator offers there.
public struct InviteReach: Sendable, Hashable {
    /// The creator's compact card, binary form (``CompactContactCard`` version 1). Verified by ``compactCard()``.
    public var compactCardBytes: [UInt8]
    /// A `kith serve` base URL (`http://` or `https://`), when the creator answers through a relay.
    public var server: String?
    /// The rendezvous join code the creator offers on ``server``.
    public var joinCode: String?

    /// A reach. Bounds are checked by ``checkBounds()`` (also when decoding a payload).
    public init(compactCardBytes: [UInt8], server: String? = nil, joinCode: String? = nil) {
        self.compactCardBytes = compactCardBytes
        self.server = server
        self.joinCode = joinCode
    }

    /// Longest server URL carried, in bytes.
    public static let maxServerBytes = 256
    /// Join code length range (the rendezvous server's rule: 6 to 64 letters, digits, `-`, `_`).
    public static let joinCodeLength = 6...64

    /// The compact card, decoded and its signature verified.
    ///
    /// - Throws: ``InviteError/invalidReach(_:)`` when it does not decode or verify.
    public func compactCard() throws(InviteError) -> CompactContactCard {
        do throws(CompactContactCardError) {
            return try CompactContactCard.decode(compactCardBytes)
        } catch {
            throw .invalidReach("the creator's compact card: \(error.description)")
        }
    }

    /// Checks the sizes and forms: the card within ``CompactContactCard/maxBytes``, the server an `http(s)://` URL of
    /// printable ASCII within ``maxServerBytes``, the join code 6 to 64 of `[A-Za-z0-9_-]`, and server and code
    /// together or not at all.
    ///
    /// - Throws: ``InviteError/invalidReach(_:)``.
    public func checkBounds() throws(InviteError) {
        guard !compactCardBytes.isEmpty, compactCardBytes.count <= CompactContactCard.maxBytes else {
            throw .invalidReach("compact card of \(compactCardBytes.count) bytes (1...\(CompactContactCard.maxBytes))")
        }
        guard (server == nil) == (joinCode == nil) else { throw .invalidReach("a server without a join code, or the reverse") }
        if let server {
            let bytes = Array(server.utf8)
            guard bytes.count <= Self.maxServerBytes, bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw .invalidReach("server URL of \(bytes.count) bytes or with characters outside printable ASCII")
            }
            let lower = server.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw .invalidReach("server URL must start with http:// or https://")
            }
        }
        if let joinCode {
            let bytes = Array(joinCode.utf8)
            guard Self.joinCodeLength.contains(bytes.count), bytes.allSatisfy(Self.isJoinCodeByte) else {
                throw .invalidReach("join code must be 6 to 64 letters, digits, '-' or '_'")
            }
        }
    }

    private static func isJoinCodeByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
