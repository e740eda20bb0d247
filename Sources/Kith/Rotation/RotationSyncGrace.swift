import KithStore

/// The grace after a key rotation during which the previous dh key still authenticates sync
/// (docs/sync.md, "After a key rotation").
///
/// A rotated device's contacts learn the rotation from its feed, which travels by sync; until they
/// hold it they know only the previous dh key, and the Noise handshake is keyed by that key. So
/// for ``Account/rotationSyncGrace`` after a verified rotation whose reason is not
/// `key_compromise`, the rotated side presents its previous dh key as Noise static and answers IK
/// to either key, and a contact who already holds the rotation accepts the previous key too. A
/// `key_compromise` rotation gets no grace: whoever took the device holds the old key.
public enum RotationSyncGrace {
    /// Whether the grace of a feed's latest rotation is still open at `nowSeconds` (Unix seconds):
    /// the latest of `rotations` (one feed's, by sequence) is verified, its reason is not
    /// `key_compromise`, and it was recorded (`recordedAt`, Unix milliseconds) less than
    /// ``Account/rotationSyncGrace`` earlier. False without any rotation.
    public static func isOpen(after rotations: [KeyRotationRecord], nowSeconds: Int64) -> Bool {
        guard let latest = rotations.max(by: { $0.sequence < $1.sequence }), latest.verified,
              latest.reason != KeyRotationReason.keyCompromise.rawValue else { return false }
        let (nowMillis, overflow) = nowSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return false }
        let (age, ageOverflow) = nowMillis.subtractingReportingOverflow(latest.recordedAt)
        return !ageOverflow && age < Account.rotationSyncGrace * 1000
    }
}

extension Account {
    /// How long after a rotation (not `key_compromise`) the previous dh key still authenticates
    /// sync (30 days), in seconds: ``RotationSyncGrace``.
    public static let rotationSyncGrace: Int64 = 30 * 24 * 3600
}
