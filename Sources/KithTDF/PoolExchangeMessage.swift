import KithCanonical

/// One message of the one-time key pool exchange (docs/TDF.md, "Pool exchange"), sent inside an
/// authenticated secure link while two contacts sync in person.
///
/// Layout: `version(1) ‖ kind(1) ‖ exchange id(16) ‖ body`, big-endian integers.
///
/// | kind | message | body |
/// |---|---|---|
/// | 0x01 | request | initiator nonce 32 ‖ pool size u32 |
/// | 0x02 | offer | echoed initiator nonce 32 ‖ responder nonce 32 ‖ key count u32 ‖ keys (33 each) |
/// | 0x03 | ack | echoed responder nonce 32 ‖ digest of the offered keys 32 ‖ key count u32 ‖ keys (33 each) |
/// | 0x04 | commit | confirmation 32 |
/// | 0x05 | revoke | nothing: the sender deleted both pools it shares with the receiver |
/// | 0x06 | idle | nothing: the sender starts no exchange in this session (exchange id all zero) |
/// | 0x07 | abort | nothing: the sender abandons the named exchange (refused, or a check failed) |
///
/// Every count is bounded by ``PoolExchangeMessage/maximumKeys`` before anything is allocated.
public enum PoolExchangeMessage: Sendable, Equatable {
    /// The initiator asks for an exchange of pools of `poolSize` keys each way.
    case request(Request)
    /// The responder answers with the public halves of the pool it generated for the initiator.
    case offer(Offer)
    /// The initiator acknowledges the offer and sends the public halves of its own pool.
    case ack(Ack)
    /// The responder stored both pools; the confirmation binds the whole exchange.
    case commit(Commit)
    /// The sender revoked trust: it deleted both pools and refuses one-time messages until a new exchange.
    case revoke(exchangeID: PoolExchangeID)
    /// The sender starts no exchange in this session.
    case idle
    /// The sender abandons this exchange: the peer forgets what it stored for it.
    case abort(exchangeID: PoolExchangeID)

    /// The format version this codec writes and reads.
    public static let version: UInt8 = 1
    /// The largest pool either side may offer in one exchange.
    public static let maximumKeys = 65_536
    /// The size of each nonce.
    public static let nonceSize = 32
    /// The size of the key digest and the commit confirmation.
    public static let digestSize = 32
    /// The size of one compressed P-256 public key on the wire.
    public static let publicKeySize = 33

    /// The request's fields.
    public struct Request: Sendable, Equatable {
        /// The exchange this message belongs to.
        public let exchangeID: PoolExchangeID
        /// The initiator's fresh random nonce.
        public let initiatorNonce: [UInt8]
        /// How many keys each side generates for the other.
        public let poolSize: UInt32
    }

    /// The offer's fields.
    public struct Offer: Sendable, Equatable {
        /// The exchange this message belongs to.
        public let exchangeID: PoolExchangeID
        /// The request's nonce, echoed.
        public let initiatorNonce: [UInt8]
        /// The responder's fresh random nonce.
        public let responderNonce: [UInt8]
        /// The compressed public halves of the responder's pool for the initiator.
        public let publicKeys: [[UInt8]]
    }

    /// The ack's fields.
    public struct Ack: Sendable, Equatable {
        /// The exchange this message belongs to.
        public let exchangeID: PoolExchangeID
        /// The offer's nonce, echoed.
        public let responderNonce: [UInt8]
        /// SHA-256 of the offered keys as the initiator received them.
        public let offerDigest: [UInt8]
        /// The compressed public halves of the initiator's pool for the responder.
        public let publicKeys: [[UInt8]]
    }

    /// The commit's fields.
    public struct Commit: Sendable, Equatable {
        /// The exchange this message belongs to.
        public let exchangeID: PoolExchangeID
        /// ``PoolExchangeTranscript/confirmation`` of the whole exchange.
        public let confirmation: [UInt8]
    }

    /// The kind byte of each message.
    public enum Kind: UInt8, Sendable {
        /// ``PoolExchangeMessage/request(_:)``.
        case request = 0x01
        /// ``PoolExchangeMessage/offer(_:)``.
        case offer = 0x02
        /// ``PoolExchangeMessage/ack(_:)``.
        case ack = 0x03
        /// ``PoolExchangeMessage/commit(_:)``.
        case commit = 0x04
        /// ``PoolExchangeMessage/revoke(exchangeID:)``.
        case revoke = 0x05
        /// ``PoolExchangeMessage/idle``.
        case idle = 0x06
        /// ``PoolExchangeMessage/abort(exchangeID:)``.
        case abort = 0x07
    }

    /// The message's kind.
    public var kind: Kind {
        switch self {
        case .request: .request
        case .offer: .offer
        case .ack: .ack
        case .commit: .commit
        case .revoke: .revoke
        case .idle: .idle
        case .abort: .abort
        }
    }

    /// The exchange the message belongs to.
    public var exchangeID: PoolExchangeID {
        switch self {
        case .request(let request): request.exchangeID
        case .offer(let offer): offer.exchangeID
        case .ack(let ack): ack.exchangeID
        case .commit(let commit): commit.exchangeID
        case .revoke(let id), .abort(let id): id
        case .idle: PoolExchangeID(validated: [UInt8](repeating: 0, count: PoolExchangeID.size))
        }
    }

    /// The encoded message.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.write(Self.version)
        writer.write(kind.rawValue)
        writer.write(bytes: exchangeID.bytes)
        switch self {
        case .request(let request):
            writer.write(bytes: request.initiatorNonce)
            writer.write(request.poolSize)
        case .offer(let offer):
            writer.write(bytes: offer.initiatorNonce)
            writer.write(bytes: offer.responderNonce)
            Self.write(offer.publicKeys, to: &writer)
        case .ack(let ack):
            writer.write(bytes: ack.responderNonce)
            writer.write(bytes: ack.offerDigest)
            Self.write(ack.publicKeys, to: &writer)
        case .commit(let commit):
            writer.write(bytes: commit.confirmation)
        case .revoke, .idle, .abort:
            break
        }
        return writer.bytes
    }

    private static func write(_ keys: [[UInt8]], to writer: inout ByteWriter) {
        writer.write(UInt32(clamping: keys.count))
        for key in keys { writer.write(bytes: key) }
    }

    /// Decodes one message; every field bounded, nothing trailing.
    /// - Throws: ``PoolExchangeError`` naming what is wrong.
    public init(decoding bytes: [UInt8]) throws(PoolExchangeError) {
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == Self.version else { throw PoolExchangeError.unsupportedVersion(version) }
            let rawKind = try reader.readUInt8()
            guard let kind = Kind(rawValue: rawKind) else { throw PoolExchangeError.unknownMessageKind(rawKind) }
            let id = PoolExchangeID(validated: try reader.readBytes(PoolExchangeID.size))
            switch kind {
            case .request:
                let nonce = try reader.readBytes(Self.nonceSize)
                let size = try reader.readUInt32()
                guard (1...UInt32(Self.maximumKeys)).contains(size) else { throw PoolExchangeError.invalidPoolSize(Int(size)) }
                self = .request(Request(exchangeID: id, initiatorNonce: nonce, poolSize: size))
            case .offer:
                let initiatorNonce = try reader.readBytes(Self.nonceSize)
                let responderNonce = try reader.readBytes(Self.nonceSize)
                let keys = try Self.readKeys(&reader)
                self = .offer(Offer(exchangeID: id, initiatorNonce: initiatorNonce, responderNonce: responderNonce, publicKeys: keys))
            case .ack:
                let responderNonce = try reader.readBytes(Self.nonceSize)
                let digest = try reader.readBytes(Self.digestSize)
                let keys = try Self.readKeys(&reader)
                self = .ack(Ack(exchangeID: id, responderNonce: responderNonce, offerDigest: digest, publicKeys: keys))
            case .commit:
                self = .commit(Commit(exchangeID: id, confirmation: try reader.readBytes(Self.digestSize)))
            case .revoke:
                self = .revoke(exchangeID: id)
            case .idle:
                self = .idle
            case .abort:
                self = .abort(exchangeID: id)
            }
            try reader.expectEnd()
        } catch let error as PoolExchangeError {
            throw error
        } catch let error as ByteReaderError {
            throw .malformed(error)
        } catch {
            throw .malformed(.truncated(needed: 0, available: 0, offset: 0))
        }
    }

    private static func readKeys(_ reader: inout ByteReader) throws -> [[UInt8]] {
        let count = Int(try reader.readUInt32())
        guard (1...Self.maximumKeys).contains(count) else { throw PoolExchangeError.invalidPoolSize(count) }
        // The count is checked against the bytes present before anything is allocated.
        guard reader.remaining >= count * Self.publicKeySize else {
            throw ByteReaderError.truncated(needed: count * Self.publicKeySize, available: reader.remaining, offset: reader.offset)
        }
        var keys: [[UInt8]] = []
        keys.reserveCapacity(count)
        for _ in 0..<count { keys.append(try reader.readBytes(Self.publicKeySize)) }
        return keys
    }
}
