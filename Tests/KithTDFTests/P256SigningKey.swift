import Crypto

/// A fresh P-256 signing key for signature tests.
enum P256SigningKey {
    static func make() -> P256.Signing.PrivateKey { P256.Signing.PrivateKey() }
}
