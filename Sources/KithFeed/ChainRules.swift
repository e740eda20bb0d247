import Crypto
import KithEd25519
import KithIdentity

/// The chain rules that decide whether a signed entry is authentic, in one place for
/// `kith feed verify` (``ChainVerifier``) and ingest (the store's `IngestSession`), so the two
/// can never disagree (docs/FEED-FORMAT.md section 7 rules 4 and 4a).
public enum ChainRules {
    /// The `type` of a key rotation announcement (spec 5.5).
    public static let keyRotationType = "key_rotation"

    /// Checks the signature of an envelope with the key in force at its sequence.
    ///
    /// - Throws: ``FeedError/feedIDMismatch(expected:found:)`` for another feed;
    ///   ``FeedError/rotatedKeyUnknown(sequence:announcedAt:)`` when the signature fails after a
    ///   rotation whose announcement could not be read (the new key is unknown here);
    ///   ``FeedError/badSignature`` otherwise.
    public static func verify(_ envelope: Envelope, keys: FeedKeyHistory) throws(FeedError) {
        try verify(feedID: envelope.feedID, sequence: envelope.sequence, keys: keys) { key in
            key.isValidStrictSignature(envelope.signature, for: envelope.signingBytes())
        }
    }

    /// Checks the signature of a self stub with the key in force at its sequence (as an envelope).
    public static func verify(_ stub: SelfStub, keys: FeedKeyHistory) throws(FeedError) {
        try verify(feedID: stub.feedID, sequence: stub.sequence, keys: keys) { key in
            key.isValidStrictSignature(stub.signature, for: stub.signingBytes)
        }
    }

    /// The rule behind both: right feed, then the key in force, then the unknown-key verdict.
    public static func verify(
        feedID: FeedID, sequence: UInt32, keys: FeedKeyHistory, isValid: (Curve25519.Signing.PublicKey) -> Bool
    ) throws(FeedError) {
        let expected = keys.feedID
        guard feedID == expected else { throw .feedIDMismatch(expected: expected.string, found: feedID.string) }
        if isValid(keys.key(at: sequence)) { return }
        if let announced = keys.unknownKeyAnnouncement(before: sequence) {
            throw .rotatedKeyUnknown(sequence: sequence, announcedAt: announced)
        }
        throw .badSignature
    }

    /// What a linked, authenticated envelope teaches the key history: a readable `key_rotation`
    /// is applied (when its `previous_key_sig` verifies); an unreadable one is noted.
    ///
    /// - Parameter content: the decrypted content; nil when this reader cannot read it or it is
    ///   invalid (withheld), which counts as unreadable.
    public static func learn(from envelope: Envelope, content: Content?, into keys: inout FeedKeyHistory) {
        guard envelope.type == keyRotationType else { return }
        if case .keyRotation(let rotation)? = content {
            keys.apply(rotation, at: envelope.sequence)
        } else {
            keys.noteUnreadableRotation(at: envelope.sequence)
        }
    }
}
