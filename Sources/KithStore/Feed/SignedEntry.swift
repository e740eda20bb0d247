import Crypto
import KithEd25519
import KithFeed
import KithIdentity

/// An entry whose position and link are signed by the feed's author: a v1 envelope or a signed
/// self stub. Both are verified and linked by the same chain rules.
enum SignedEntry: Sendable {
    case envelope(Envelope)
    case stub(SelfStub, bytes: [UInt8])

    /// The signed entry of a parsed feed line; nil for a later-version envelope.
    init?(_ entry: FeedEntry, bytes: [UInt8]) {
        switch entry {
        case .envelope(let envelope): self = .envelope(envelope)
        case .stub(let stub): self = .stub(stub, bytes: bytes)
        case .foreign: return nil
        }
    }

    var messageID: MessageID {
        switch self {
        case .envelope(let envelope): envelope.messageID
        case .stub(let stub, _): stub.messageID
        }
    }

    var feedID: FeedID {
        switch self {
        case .envelope(let envelope): envelope.feedID
        case .stub(let stub, _): stub.feedID
        }
    }

    var sequence: UInt32 {
        switch self {
        case .envelope(let envelope): envelope.sequence
        case .stub(let stub, _): stub.sequence
        }
    }

    var previous: MessageID? {
        switch self {
        case .envelope(let envelope): envelope.previous
        case .stub(let stub, _): stub.previous
        }
    }

    var canonicalBytes: [UInt8] {
        switch self {
        case .envelope(let envelope): envelope.canonicalBytes
        case .stub(_, let bytes): bytes
        }
    }

    /// The `pending_entries.kind` value.
    var kind: String { isEnvelope ? "envelope" : "self" }

    var isEnvelope: Bool {
        if case .envelope = self { return true }
        return false
    }

    /// Checks the signature with the key in force at its sequence (``ChainRules``, shared with the verifier).
    func verify(keys: FeedKeyHistory) throws(FeedError) {
        switch self {
        case .envelope(let envelope): try ChainRules.verify(envelope, keys: keys)
        case .stub(let stub, _): try ChainRules.verify(stub, keys: keys)
        }
    }

    /// Checks the signature with `key`. The feed id needs no check here: the store looked the
    /// feed up by this entry's feed id, and a followed feed's id is the hash of its original key.
    func verifySignature(with key: Curve25519.Signing.PublicKey) throws(FeedError) {
        let valid: Bool
        switch self {
        case .envelope(let envelope): valid = key.isValidStrictSignature(envelope.signature, for: envelope.signingBytes())
        case .stub(let stub, _): valid = key.isValidStrictSignature(stub.signature, for: stub.signingBytes)
        }
        guard valid else { throw .badSignature }
    }
}
