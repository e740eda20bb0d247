import KithFeed

/// Why the account's keys are rotated: the `reason` of the `key_rotation` message (spec 5.5;
/// the raw values are `KeyRotation.reasons`).
public enum KeyRotationReason: String, Sendable, CaseIterable {
    /// The regular contacts key rotation (every ``Account/keyRotationInterval``).
    case scheduledRotation = "scheduled_rotation"
    /// The identity moved to another device.
    case deviceMigration = "device_migration"
    /// A key may have leaked.
    case keyCompromise = "key_compromise"
}
