import KithContinuity
import KithIdentity

/// What guardians' releases rebuilt on a new device: the device seed and the rotated key seeds of the lost identity,
/// checked to derive the feed id that was claimed. Store the seed in a new home's vault (and the key seeds in its
/// `keys.sealed`) to open the identity again; then restore from a backup or from what contacts hold of the feed.
public struct RecoveredIdentity: Sendable {
    /// The lost identity's device seed.
    public let deviceSeed: Seed
    /// Its rotated key seeds, nil when the keys never rotated.
    public let keySeeds: RotatedKeySeeds?
    /// The backup recovery key the set carried (`setup(threshold:guardians:backupKey:)`), nil when it carried none.
    public let backupKey: RecoveryKey?
    /// The identity the seeds derive (its feed id is the one claimed in the request).
    public let identity: Identity
}
