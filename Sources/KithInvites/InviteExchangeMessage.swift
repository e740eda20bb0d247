import KithCanonical

/// One message of the invite exchange, the short conversation a joiner who never met an invite's creator holds with
/// it over a Noise secure link (docs/INVITES.md, "Joiners who never met the creator"):
///
/// 1. joiner → creator ``cardRequest(commitment:)``: the commitment of the invite's compact card; creator → joiner
///    ``creatorCard(_:)``: the full contact card it commits to (the joiner checks the commitment and the invite's
///    signer against it);
/// 2. joiner → creator ``joinRequest(code:card:keyPackage:)``: the invite code, the joiner's full card, a KeyPackage;
/// 3. creator → joiner ``welcome(_:tree:)`` (the MLS Welcome, and the ratchet tree when it travels apart) or
///    ``refusal(error:reason:)``.
///
/// Binary layout (big-endian lengths), bounded field by field:
///
///     0x01 | u16 card_length | card
///     0x02 | u16 code_length | code (printable ASCII) | u16 card_length | card | u16 key_package_length | key_package
///     0x03 | u32 welcome_length | welcome | u32 tree_length | tree (length 0: the Welcome carries its tree)
///     0x04 | u8 error_length | error (ASCII) | u16 reason_length | reason (UTF-8)
///     0x05 | commitment 32
public enum InviteExchangeMessage: Sendable, Hashable {
    /// The creator's full contact card, encoded.
    case creatorCard([UInt8])
    /// The joiner's request.
    case joinRequest(code: String, card: [UInt8], keyPackage: [UInt8])
    /// The MLS Welcome (TLS-encoded `MLSMessage`) and the ratchet tree when it travels apart (empty otherwise).
    case welcome([UInt8], tree: [UInt8])
    /// A refusal: one of the `invite_join_error` kinds and a reason.
    case refusal(error: String, reason: String)
    /// The joiner asks for the full card a compact card commits to (32 bytes).
    case cardRequest(commitment: [UInt8])

    /// Largest card carried (a Kith card is about 1,460 bytes).
    public static let maxCardBytes = 4_096
    /// Largest invite code carried (the join request's bound).
    public static let maxCodeBytes = 4_096
    /// Largest KeyPackage carried.
    public static let maxKeyPackageBytes = 4_096
    /// Largest Welcome carried.
    public static let maxWelcomeBytes = 64 * 1024
    /// Largest ratchet tree carried apart.
    public static let maxTreeBytes = 256 * 1024
    /// Longest error kind.
    public static let maxErrorBytes = 32
    /// Longest reason.
    public static let maxReasonBytes = 500
    /// Largest encoded message.
    public static let maxEncodedBytes = 1 + 4 + maxWelcomeBytes + 4 + maxTreeBytes
    /// Largest encoded message a joiner sends (a card request or a join request): the creator's bound
    /// for what a stranger may make it buffer.
    public static let maxJoinerMessageBytes = 1 + 2 + maxCodeBytes + 2 + maxCardBytes + 2 + maxKeyPackageBytes

    private enum Kind: UInt8 {
        case creatorCard = 0x01
        case joinRequest = 0x02
        case welcome = 0x03
        case refusal = 0x04
        case cardRequest = 0x05
    }

    /// The encoded bytes.
    ///
    /// - Throws: ``InviteExchangeError/fieldTooLarge(field:bytes:limit:)`` when a field is over its bound.
    public func encoded() throws(InviteExchangeError) -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .creatorCard(let card):
            writer.write(Kind.creatorCard.rawValue)
            try Self.write16(card, "card", Self.maxCardBytes, &writer)
        case let .joinRequest(code, card, keyPackage):
            writer.write(Kind.joinRequest.rawValue)
            try Self.write16(Array(code.utf8), "code", Self.maxCodeBytes, &writer)
            try Self.write16(card, "card", Self.maxCardBytes, &writer)
            try Self.write16(keyPackage, "key_package", Self.maxKeyPackageBytes, &writer)
        case let .welcome(welcome, tree):
            writer.write(Kind.welcome.rawValue)
            try Self.check(welcome.count, "welcome", Self.maxWelcomeBytes)
            writer.write(UInt32(welcome.count))
            writer.write(bytes: welcome)
            try Self.check(tree.count, "tree", Self.maxTreeBytes)
            writer.write(UInt32(tree.count))
            writer.write(bytes: tree)
        case let .refusal(error, reason):
            writer.write(Kind.refusal.rawValue)
            let errorBytes = Array(error.utf8)
            try Self.check(errorBytes.count, "error", Self.maxErrorBytes)
            writer.write(UInt8(errorBytes.count))
            writer.write(bytes: errorBytes)
            try Self.write16(Array(reason.prefix(utf8Bytes: Self.maxReasonBytes).utf8), "reason", Self.maxReasonBytes, &writer)
        case .cardRequest(let commitment):
            guard commitment.count == 32 else { throw .malformed("a card commitment is 32 bytes (got \(commitment.count))") }
            writer.write(Kind.cardRequest.rawValue)
            writer.write(bytes: commitment)
        }
        return writer.bytes
    }

    /// Decodes one message through a bounded cursor: every length is checked against its bound before anything is
    /// read, and no byte may follow the message.
    ///
    /// - Throws: ``InviteExchangeError``.
    public init(decoding bytes: [UInt8]) throws(InviteExchangeError) {
        guard bytes.count <= Self.maxEncodedBytes else { throw .fieldTooLarge(field: "message", bytes: bytes.count, limit: Self.maxEncodedBytes) }
        var reader = ByteReader(bytes)
        do {
            let first = try reader.readUInt8()
            guard let kind = Kind(rawValue: first) else { throw InviteExchangeError.unknownKind(first) }
            switch kind {
            case .creatorCard:
                self = .creatorCard(try Self.read16(&reader, "card", Self.maxCardBytes))
            case .joinRequest:
                let code = try Self.read16(&reader, "code", Self.maxCodeBytes)
                guard code.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw InviteExchangeError.malformed("the code is not printable ASCII") }
                let card = try Self.read16(&reader, "card", Self.maxCardBytes)
                let keyPackage = try Self.read16(&reader, "key_package", Self.maxKeyPackageBytes)
                self = .joinRequest(code: String(decoding: code, as: UTF8.self), card: card, keyPackage: keyPackage)
            case .welcome:
                let welcomeLength = Int(try reader.readUInt32())
                try Self.check(welcomeLength, "welcome", Self.maxWelcomeBytes)
                let welcome = try reader.readBytes(welcomeLength)
                let treeLength = Int(try reader.readUInt32())
                try Self.check(treeLength, "tree", Self.maxTreeBytes)
                self = .welcome(welcome, tree: try reader.readBytes(treeLength))
            case .refusal:
                let errorLength = Int(try reader.readUInt8())
                try Self.check(errorLength, "error", Self.maxErrorBytes)
                let error = try reader.readBytes(errorLength)
                guard error.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw InviteExchangeError.malformed("the error kind is not printable ASCII") }
                let reason = try Self.read16(&reader, "reason", Self.maxReasonBytes)
                guard let text = String(validating: reason, as: UTF8.self) else { throw InviteExchangeError.malformed("the reason is not UTF-8") }
                self = .refusal(error: String(decoding: error, as: UTF8.self), reason: text)
            case .cardRequest:
                self = .cardRequest(commitment: try reader.readBytes(32))
            }
            try reader.expectEnd()
        } catch let error as InviteExchangeError {
            throw error
        } catch let error as ByteReaderError {
            throw .malformed(error.description)
        } catch {
            throw .malformed("\(error)")
        }
    }

    private static func check(_ count: Int, _ field: String, _ limit: Int) throws(InviteExchangeError) {
        guard count <= limit else { throw .fieldTooLarge(field: field, bytes: count, limit: limit) }
    }

    private static func write16(_ value: [UInt8], _ field: String, _ limit: Int, _ writer: inout ByteWriter) throws(InviteExchangeError) {
        try check(value.count, field, limit)
        writer.write(UInt16(value.count))
        writer.write(bytes: value)
    }

    private static func read16(_ reader: inout ByteReader, _ field: String, _ limit: Int) throws -> [UInt8] {
        let length = Int(try reader.readUInt16())
        try check(length, field, limit)
        return try reader.readBytes(length)
    }
}
