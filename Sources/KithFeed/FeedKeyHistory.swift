import Crypto
import KithIdentity

/// Which identity key signs each sequence of one feed (docs/FEED-FORMAT.md section 7 rule 4):
/// the original key (whose hash is the feed id) until the first verified rotation, then each
/// rotation's new key from the sequence after its announcement.
///
/// Pure and in memory: ``ChainVerifier`` fills it from the feed's own `key_rotation` entries,
/// the store from its verified `feed_keys` rows. Both then ask ``ChainRules`` for verdicts.
public struct FeedKeyHistory: Sendable {
    /// The original identity key; its SHA-256 is the feed id.
    public let original: Curve25519.Signing.PublicKey
    /// Verified keys in force from a sequence on, ascending by sequence.
    public private(set) var rotations: [(from: UInt32, key: Curve25519.Signing.PublicKey)] = []
    /// Sequences of linked `key_rotation` announcements whose content could not be read here:
    /// the key in force after one of them is unknown.
    public private(set) var unreadableRotations: [UInt32] = []

    /// A history with the original key only.
    public init(original: Curve25519.Signing.PublicKey) {
        self.original = original
    }

    /// The feed this history verifies.
    public var feedID: FeedID { FeedID(identityKey: original) }

    /// True when anything but the original key may be in force somewhere.
    public var hasRotations: Bool { !rotations.isEmpty || !unreadableRotations.isEmpty }

    /// The key in force at `sequence`.
    public func key(at sequence: UInt32) -> Curve25519.Signing.PublicKey {
        rotations.last { $0.from <= sequence }?.key ?? original
    }

    /// The newest unreadable announcement below `sequence` that no verified rotation has
    /// superseded: entries at `sequence` may be signed by a key this history does not know.
    public func unknownKeyAnnouncement(before sequence: UInt32) -> UInt32? {
        guard let announced = unreadableRotations.last(where: { $0 < sequence }) else { return nil }
        if let known = rotations.last(where: { $0.from <= sequence }), known.from > announced { return nil }
        return announced
    }

    /// Records a verified key in force from `sequence` on (a rotation, or a key confirmed in person).
    public mutating func adopt(_ key: Curve25519.Signing.PublicKey, from sequence: UInt32) {
        rotations.removeAll { $0.from == sequence }
        rotations.append((sequence, key))
        rotations.sort { $0.from < $1.from }
    }

    /// Applies a readable `key_rotation` announced at `sequence`: when its `previous_key_sig`
    /// verifies with the key in force at `sequence`, its new key is in force from `sequence + 1`.
    /// Returns whether it was adopted (an unverified rotation is never trusted).
    @discardableResult
    public mutating func apply(_ rotation: KeyRotation, at sequence: UInt32) -> Bool {
        guard KeyRotationVerifier.isVerified(rotation, oldIdentityKey: key(at: sequence)),
              let new = KeyRotationVerifier.newIdentityKey(rotation), sequence < FeedLimits.maxSequence else { return false }
        adopt(new, from: sequence + 1)
        return true
    }

    /// Records a `key_rotation` announcement at `sequence` whose content is unreadable here.
    public mutating func noteUnreadableRotation(at sequence: UInt32) {
        guard !unreadableRotations.contains(sequence) else { return }
        unreadableRotations.append(sequence)
        unreadableRotations.sort()
    }
}
