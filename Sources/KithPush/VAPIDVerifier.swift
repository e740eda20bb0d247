import Crypto
import Foundation
import KithCanonical

/// Verifies VAPID authorizations (RFC 8292 §4) as a push service does before accepting a message.
public struct VAPIDVerifier: Sendable {
    /// The push service's own origin (`scheme://host[:port]`), which `aud` must equal.
    public let audience: String
    /// Tolerated clock difference, in seconds, on both ends of the expiry window.
    public let clockSkew: Int64

    /// Bounds for the JOSE header and claims JSON.
    private static let jsonLimits = JSONLimits(maxBytes: 1024, maxDepth: 2, maxStringBytes: PushLimits.maxVAPIDClaimBytes,
                                               maxContainerElements: 16, maxTotalValues: 32)

    /// Creates a verifier for a push service reachable at `audience`.
    public init(audience: String, clockSkew: Int64 = PushLimits.defaultVAPIDClockSkewSeconds) {
        self.audience = audience
        self.clockSkew = clockSkew
    }

    /// Verifies `authorization` and returns its claims.
    ///
    /// Checks: the key is a P-256 point (and equals `restrictedTo` when the subscription was restricted),
    /// the JWT has three base64url parts, its header is ES256 (typ JWT if present, no `crit`), the
    /// raw 64-byte `r||s` signature verifies, `aud` equals ``audience`` and `exp` lies in
    /// (now, now + 24 h], both widened by ``clockSkew``.
    ///
    /// - Throws: ``VAPIDError`` naming the first failed check.
    public func verify(_ authorization: VAPIDAuthorization, now: Int64, restrictedTo expectedKey: [UInt8]? = nil) throws(VAPIDError) -> VAPIDClaims {
        if let expectedKey, !ConstantTime.equals(expectedKey, authorization.publicKey) { throw .keyMismatch }
        let key: P256.Signing.PublicKey
        do { key = try P256.Signing.PublicKey(x963Representation: authorization.publicKey) } catch { throw .invalidPublicKey("not a point on P-256") }

        let parts = authorization.token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedToken("\(parts.count) segments instead of 3") }
        let header = try Self.object(parts[0], name: "header")
        let payload = try Self.object(parts[1], name: "payload")

        guard header["alg"]?.stringValue == "ES256" else { throw .unsupportedHeader("alg is not ES256") }
        if let type = header["typ"], type.stringValue?.uppercased() != "JWT" { throw .unsupportedHeader("typ is not JWT") }
        if header["crit"] != nil { throw .unsupportedHeader("crit is not supported") }
        let signatureBytes: [UInt8]
        do { signatureBytes = try Base64URL.decode(String(parts[2])) } catch { throw .malformedToken("signature is not base64url") }
        guard signatureBytes.count == 64 else { throw .malformedToken("signature is \(signatureBytes.count) bytes, not raw r||s (64)") }

        let signingInput = Array(authorization.token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
              key.isValidSignature(signature, for: signingInput) else { throw .badSignature }

        let claims = try VAPIDClaims.read(payload)
        guard claims.audience == audience else { throw .wrongAudience(expected: audience, found: claims.audience) }
        let earliest = now.subtractingReportingOverflow(clockSkew)
        guard !earliest.overflow, claims.expiration > earliest.partialValue else { throw .expired(expiration: claims.expiration, now: now) }
        let window = PushLimits.maxVAPIDLifetimeSeconds.addingReportingOverflow(clockSkew)
        let latestSum = now.addingReportingOverflow(window.partialValue)
        let latest = window.overflow || latestSum.overflow ? Int64.max : latestSum.partialValue
        guard claims.expiration <= latest else { throw .expirationTooFar(expiration: claims.expiration, latest: latest) }
        return claims
    }

    /// Parses the `Authorization` header value and verifies it.
    ///
    /// - Throws: any ``VAPIDAuthorization/parse(_:)`` or ``verify(_:now:restrictedTo:)`` error.
    public func verify(headerValue: String, now: Int64, restrictedTo expectedKey: [UInt8]? = nil) throws(VAPIDError) -> VAPIDClaims {
        try verify(VAPIDAuthorization.parse(headerValue), now: now, restrictedTo: expectedKey)
    }

    private static func object(_ segment: Substring, name: String) throws(VAPIDError) -> JSONObject {
        let bytes: [UInt8]
        do { bytes = try Base64URL.decode(String(segment)) } catch { throw .malformedToken("\(name) is not base64url") }
        let value: JSONValue
        do { value = try CanonicalJSON.parse(bytes, limits: jsonLimits) } catch { throw .malformedToken("\(name) is not JSON: \(error)") }
        guard let object = value.objectValue else { throw .malformedToken("\(name) is not a JSON object") }
        return object
    }
}
