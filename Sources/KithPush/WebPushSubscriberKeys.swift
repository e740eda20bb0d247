import Crypto
import Foundation
import KithCanonical

/// The public half of a Web Push subscription: what an application server needs to encrypt for a
/// user agent (RFC 8291 §2): its P-256 public key (`p256dh`) and its 16-byte authentication secret (`auth`).
///
/// Both values are validated on creation, so an encryption never starts from a malformed key.
public struct WebPushSubscriberKeys: Sendable {
    /// The user agent's P-256 public key.
    public let publicKey: P256.KeyAgreement.PublicKey
    /// The user agent's public key as 65 uncompressed bytes (`0x04 || x || y`), the `ua_public` of RFC 8291.
    public let publicKeyBytes: [UInt8]
    /// The 16-byte authentication secret shared with the application server.
    public let authSecret: [UInt8]

    /// Creates the keys from raw bytes.
    ///
    /// - Throws: ``WebPushError/invalidPublicKey(_:)`` unless `p256dh` is a 65-byte uncompressed point
    ///   on P-256; ``WebPushError/invalidAuthSecret(length:)`` unless `auth` is 16 bytes.
    public init(p256dh: [UInt8], auth: [UInt8]) throws(WebPushError) {
        guard auth.count == PushLimits.authSecretLength else { throw .invalidAuthSecret(length: auth.count) }
        self.publicKey = try WebPushSubscriberKeys.parsePublicKey(p256dh)
        self.publicKeyBytes = p256dh
        self.authSecret = auth
    }

    /// Creates the keys from the base64url strings of a subscription's `keys` object (`p256dh`, `auth`).
    ///
    /// - Throws: ``WebPushError/invalidPublicKey(_:)`` or ``WebPushError/invalidAuthSecret(length:)``
    ///   when a string is not canonical unpadded base64url of the right length.
    public init(p256dh: String, auth: String) throws(WebPushError) {
        let key: [UInt8]
        do { key = try Base64URL.decode(p256dh) } catch { throw .invalidPublicKey("p256dh is not base64url: \(error)") }
        let secret: [UInt8]
        do { secret = try Base64URL.decode(auth) } catch { throw .invalidAuthSecret(length: -1) }
        try self.init(p256dh: key, auth: secret)
    }

    /// The `p256dh` value as unpadded base64url.
    public var p256dhBase64URL: String { Base64URL.encode(publicKeyBytes) }

    /// The `auth` value as unpadded base64url.
    public var authBase64URL: String { Base64URL.encode(authSecret) }

    /// Parses a 65-byte uncompressed P-256 point, checking length, prefix and curve membership.
    static func parsePublicKey(_ bytes: [UInt8]) throws(WebPushError) -> P256.KeyAgreement.PublicKey {
        guard bytes.count == PushLimits.publicKeyLength else {
            throw .invalidPublicKey("\(bytes.count) bytes")
        }
        guard bytes[0] == 0x04 else { throw .invalidPublicKey("prefix 0x\(String(bytes[0], radix: 16)) is not uncompressed 0x04") }
        do {
            return try P256.KeyAgreement.PublicKey(x963Representation: bytes)
        } catch {
            throw .invalidPublicKey("not a point on P-256")
        }
    }
}
