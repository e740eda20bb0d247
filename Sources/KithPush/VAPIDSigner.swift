import Crypto
import Foundation
import KithCanonical

/// Signs VAPID authorizations (RFC 8292) with an application server's P-256 key.
///
/// The signing key identifies the application server to push services; it must not be the
/// RFC 8291 encryption key of any subscription (RFC 8292 §3.2).
public struct VAPIDSigner: Sendable {
    /// The application server's ES256 signing key.
    public let signingKey: P256.Signing.PrivateKey

    /// The JOSE header Kith writes, byte for byte: `{"typ":"JWT","alg":"ES256"}`.
    static let headerJSON = Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8)

    /// Creates a signer.
    public init(signingKey: P256.Signing.PrivateKey) {
        self.signingKey = signingKey
    }

    /// The public key as 65 uncompressed bytes (the `k` parameter and the subscription's
    /// `applicationServerKey`).
    public var publicKey: [UInt8] { Array(signingKey.publicKey.x963Representation) }

    /// Signs `claims` into an authorization.
    ///
    /// - Parameters:
    ///   - claims: audience, expiry and contact.
    ///   - now: the current time in seconds since 1970 UTC, to check the expiry lies in (now, now + 24 h].
    /// - Throws: ``VAPIDError/expired(expiration:now:)``, ``VAPIDError/expirationTooFar(expiration:latest:)``
    ///   or ``VAPIDError/signingFailed``.
    public func authorization(for claims: VAPIDClaims, now: Int64) throws(VAPIDError) -> VAPIDAuthorization {
        guard claims.expiration > now else { throw .expired(expiration: claims.expiration, now: now) }
        let sum = now.addingReportingOverflow(PushLimits.maxVAPIDLifetimeSeconds)
        let latest = sum.overflow ? Int64.max : sum.partialValue
        guard claims.expiration <= latest else { throw .expirationTooFar(expiration: claims.expiration, latest: latest) }
        let token: String
        do { token = try CompactJWS.es256(header: Self.headerJSON, payload: claims.json, key: signingKey) } catch { throw .signingFailed }
        return try VAPIDAuthorization(token: token, publicKey: publicKey)
    }

    /// Signs claims for the origin of `pushResource`, expiring `lifetime` seconds after `now` (12 h by default).
    ///
    /// - Throws: ``VAPIDError`` for a push resource without an http(s) origin, a bad subject or a
    ///   lifetime outside 1…86400 seconds (reported as ``VAPIDError/expirationTooFar(expiration:latest:)``
    ///   with the lifetime and its limit).
    public func authorization(
        pushResource: String, subject: String?, now: Int64, lifetime: Int64 = 43_200
    ) throws(VAPIDError) -> VAPIDAuthorization {
        guard lifetime > 0, lifetime <= PushLimits.maxVAPIDLifetimeSeconds, now <= Int64.max - lifetime else {
            throw .expirationTooFar(expiration: lifetime, latest: PushLimits.maxVAPIDLifetimeSeconds)
        }
        let claims = try VAPIDClaims(audience: VAPIDClaims.origin(of: pushResource), expiration: now + lifetime, subject: subject)
        return try authorization(for: claims, now: now)
    }
}
