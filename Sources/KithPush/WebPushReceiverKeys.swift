import Crypto
import Foundation

/// The private half of a Web Push subscription, held by the receiving device (the user agent):
/// its P-256 key pair and its authentication secret. Kith's own receiver decrypts with these.
public struct WebPushReceiverKeys: Sendable {
    /// The user agent's P-256 private key (`ua_private`).
    public let privateKey: P256.KeyAgreement.PrivateKey
    /// The 16-byte authentication secret.
    public let authSecret: [UInt8]

    /// Creates receiver keys from an existing private key and secret.
    ///
    /// - Throws: ``WebPushError/invalidAuthSecret(length:)`` unless `authSecret` is 16 bytes.
    public init(privateKey: P256.KeyAgreement.PrivateKey, authSecret: [UInt8]) throws(WebPushError) {
        guard authSecret.count == PushLimits.authSecretLength else { throw .invalidAuthSecret(length: authSecret.count) }
        self.privateKey = privateKey
        self.authSecret = authSecret
    }

    /// Creates receiver keys from a raw 32-byte private scalar and a 16-byte secret.
    ///
    /// - Throws: ``WebPushError/invalidPrivateKey`` for a scalar that is not a valid P-256 key,
    ///   ``WebPushError/invalidAuthSecret(length:)`` for a secret of the wrong length.
    public init(rawPrivateKey: [UInt8], authSecret: [UInt8]) throws(WebPushError) {
        let key: P256.KeyAgreement.PrivateKey
        do { key = try P256.KeyAgreement.PrivateKey(rawRepresentation: rawPrivateKey) } catch { throw .invalidPrivateKey }
        try self.init(privateKey: key, authSecret: authSecret)
    }

    /// Generates a fresh key pair and a fresh random authentication secret (a new subscription).
    public static func generate() -> WebPushReceiverKeys {
        let secret = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        // A fresh 16-byte secret always has the right length.
        return WebPushReceiverKeys(unchecked: P256.KeyAgreement.PrivateKey(), authSecret: secret)
    }

    /// The user agent's public key as 65 uncompressed bytes (`ua_public`).
    public var publicKeyBytes: [UInt8] { Array(privateKey.publicKey.x963Representation) }

    /// The public half to hand to the application server (the subscription's `keys`).
    public var subscriberKeys: WebPushSubscriberKeys {
        WebPushSubscriberKeys(unchecked: privateKey.publicKey, bytes: publicKeyBytes, authSecret: authSecret)
    }

    private init(unchecked privateKey: P256.KeyAgreement.PrivateKey, authSecret: [UInt8]) {
        self.privateKey = privateKey
        self.authSecret = authSecret
    }
}

extension WebPushSubscriberKeys {
    /// Wraps values already known to be valid (derived from a private key).
    init(unchecked publicKey: P256.KeyAgreement.PublicKey, bytes: [UInt8], authSecret: [UInt8]) {
        self.publicKey = publicKey
        self.publicKeyBytes = bytes
        self.authSecret = authSecret
    }
}
