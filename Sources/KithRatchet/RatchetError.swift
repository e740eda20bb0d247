import KithIdentity

/// Why a direct-message operation failed. Every case leaves the session state unchanged.
public enum RatchetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An Ed25519 public key is not a canonical encoding of a curve point.
    case invalidEd25519PublicKey
    /// An Ed25519 or X25519 public key has small order (or converts to one) and cannot be used for DH.
    case lowOrderPoint
    /// An Ed25519 public key is on the curve but outside the prime-order subgroup.
    case notInPrimeOrderSubgroup
    /// A key has the wrong length.
    case invalidKeyLength(expected: Int, actual: Int)
    /// An ML-KEM-768 key or ciphertext was rejected by the KEM.
    case invalidPQKey
    /// An X25519 computation produced the all-zero output (the peer sent a low-order key).
    case allZeroSharedSecret
    /// A feed_id is not 43 characters of base64url encoding 32 bytes.
    case invalidFeedID(String)
    /// The audience string is longer than ``RatchetConstants/maxAudienceLength`` bytes.
    case audienceTooLong(Int)
    /// A binary structure was truncated, had trailing bytes or an impossible field.
    case malformed(String)
    /// The first byte of a direct-message wire is not a known message type.
    case unknownMessageType(UInt8)
    /// The header's pq_present flag is neither 0x00 nor 0x01.
    case invalidPQFlag(UInt8)
    /// A message of a new receiving chain arrived without the ML-KEM ciphertext that starts it;
    /// retry after the chain's first message has been processed.
    case missingPQCiphertext
    /// The message would require skipping more than ``RatchetConstants/maxSkipPerChain`` keys.
    case tooManySkippedMessages(requested: UInt32, limit: UInt32)
    /// The message was already decrypted, or its skipped key was evicted or expired.
    case duplicateOrExpiredMessage
    /// Authentication failed: wrong key, tampered bytes or wrong associated data.
    case authenticationFailed
    /// The session cannot send yet (a responder session before it has received anything).
    case noSendingChain
    /// The referenced one-time prekey does not exist (never issued, or already used).
    case unknownOneTimePrekey(id: UInt32)
    /// A one-time prekey pool would exceed ``RatchetConstants/maxOneTimePrekeys``.
    case prekeyPoolFull(limit: Int)
    /// The signed-prekey signature does not verify under the identity key.
    case invalidSignedPrekeySignature
    /// A prekey message belongs to a different session than the one it was given to.
    case prekeyMessageForOtherSession
    /// A plaintext exceeds ``RatchetConstants/maxPlaintextSize``.
    case plaintextTooLarge(Int)
    /// A serialized session has an unknown format version.
    case unsupportedSessionVersion(UInt8)
    /// The message counter of a chain would overflow 32 bits.
    case chainExhausted
    /// The storage behind a ``SessionStore``, ``PrekeyStore`` or ``PeerPrekeyStore`` failed; the
    /// transaction is rolled back and the operation can be retried.
    case storage(String)

    /// A human-readable explanation with the action to take.
    public var description: String {
        switch self {
        case .invalidEd25519PublicKey: "Ed25519 public key is not a canonical curve point"
        case .lowOrderPoint: "public key has small order; refuse it (possible attack or corrupted contact card)"
        case .notInPrimeOrderSubgroup: "Ed25519 public key is not in the prime-order subgroup"
        case .invalidKeyLength(let expected, let actual): "key must be \(expected) bytes, got \(actual)"
        case .invalidPQKey: "ML-KEM-768 key or ciphertext rejected"
        case .allZeroSharedSecret: "X25519 produced an all-zero shared secret; the peer key is invalid"
        case .invalidFeedID(let id): "'\(id)' is not a feed_id (43 base64url characters of a SHA-256 digest)"
        case .audienceTooLong(let count): "audience of \(count) bytes exceeds \(RatchetConstants.maxAudienceLength)"
        case .malformed(let what): "malformed direct-message data: \(what)"
        case .unknownMessageType(let type): "unknown direct-message type 0x\(String(type, radix: 16))"
        case .invalidPQFlag(let flag): "pq_present flag must be 0x00 or 0x01, got 0x\(String(flag, radix: 16))"
        case .missingPQCiphertext: "message starts a new chain but carries no ML-KEM ciphertext; process the chain's first message first"
        case .tooManySkippedMessages(let requested, let limit): "message would skip \(requested) keys, limit is \(limit)"
        case .duplicateOrExpiredMessage: "message already decrypted, or its skipped key was evicted/expired"
        case .authenticationFailed: "authentication failed: tampered message, wrong session or wrong associated data"
        case .noSendingChain: "session has no sending chain yet; wait for the initiator's first message"
        case .unknownOneTimePrekey(let id): "one-time prekey \(id) is unknown or already used"
        case .prekeyPoolFull(let limit): "one-time prekey pool is full (limit \(limit))"
        case .invalidSignedPrekeySignature: "signed prekey signature does not verify; refuse the bundle"
        case .prekeyMessageForOtherSession: "prekey message belongs to another session; call RatchetSession.respond"
        case .plaintextTooLarge(let count): "plaintext of \(count) bytes exceeds \(RatchetConstants.maxPlaintextSize)"
        case .unsupportedSessionVersion(let version): "serialized session version \(version) is not supported"
        case .chainExhausted: "message counter would overflow; the peer must reply to start a new chain"
        case .storage(let what): "session storage failed (\(what)); nothing was changed, retry the operation"
        }
    }
}
