/// Where an identity's seed lives at rest.
///
/// Kith never writes the seed in plaintext. ``FileKeyVault`` encrypts it under a passphrase;
/// an app can plug in a hardware keystore (Secure Enclave, Android Keystore wrapping key)
/// by conforming its own type.
public protocol KeyVault: Sendable {
    /// True when a seed has been stored.
    var containsSeed: Bool { get }
    /// Stores a new seed. Throws ``IdentityError/vaultExists(path:)`` rather than overwrite one.
    func storeSeed(_ seed: Seed) throws(IdentityError)
    /// Loads the stored seed. Throws ``IdentityError/wrongPassphrase`` and changes nothing when
    /// the secret that protects the seed is wrong.
    func loadSeed() throws(IdentityError) -> Seed
}
