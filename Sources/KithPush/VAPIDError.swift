/// Why a VAPID (RFC 8292) authorization could not be created, parsed or verified.
///
/// A push service answers 401 when the header is absent and 403 for every verification failure
/// (RFC 8292 §4.2); ``code`` is stable and ``description`` names the offending value.
public enum VAPIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `Authorization` header value is not `vapid t=…, k=…`.
    case malformedHeader(String)
    /// The header lacks a required parameter (`t` or `k`).
    case missingParameter(String)
    /// A parameter occurs twice.
    case duplicateParameter(String)
    /// The header value exceeds ``PushLimits/maxVAPIDHeaderBytes``.
    case headerTooLarge(Int)
    /// The `k` key is not a 65-byte uncompressed P-256 point.
    case invalidPublicKey(String)
    /// The JWT is not three base64url segments with JSON objects in the first two.
    case malformedToken(String)
    /// The JWT header names another algorithm or type than ES256 / JWT.
    case unsupportedHeader(String)
    /// A claim is missing, of the wrong type or malformed.
    case invalidClaim(name: String, reason: String)
    /// The ES256 signature does not verify with `k`.
    case badSignature
    /// `exp` has passed.
    case expired(expiration: Int64, now: Int64)
    /// `exp` lies more than 24 hours ahead.
    case expirationTooFar(expiration: Int64, latest: Int64)
    /// `aud` is not the origin of the push resource.
    case wrongAudience(expected: String, found: String)
    /// `k` differs from the key the subscription was restricted to.
    case keyMismatch
    /// The private key could not sign.
    case signingFailed

    /// The stable reason code.
    public var code: String {
        switch self {
        case .malformedHeader: "malformed_header"
        case .missingParameter: "missing_parameter"
        case .duplicateParameter: "duplicate_parameter"
        case .headerTooLarge: "header_too_large"
        case .invalidPublicKey: "invalid_public_key"
        case .malformedToken: "malformed_token"
        case .unsupportedHeader: "unsupported_header"
        case .invalidClaim: "invalid_claim"
        case .badSignature: "bad_signature"
        case .expired: "expired"
        case .expirationTooFar: "expiration_too_far"
        case .wrongAudience: "wrong_audience"
        case .keyMismatch: "key_mismatch"
        case .signingFailed: "signing_failed"
        }
    }

    /// A one-line explanation with the offending values.
    public var description: String {
        switch self {
        case .malformedHeader(let reason): "malformed VAPID Authorization header: \(reason) (expected `vapid t=<JWT>, k=<key>`)"
        case .missingParameter(let name): "VAPID Authorization header lacks `\(name)=`"
        case .duplicateParameter(let name): "VAPID Authorization header repeats `\(name)=`"
        case .headerTooLarge(let size): "VAPID Authorization header is \(size) bytes; the limit is \(PushLimits.maxVAPIDHeaderBytes)"
        case .invalidPublicKey(let reason): "VAPID key `k` is invalid: \(reason) (expected base64url of a 65-byte uncompressed P-256 point)"
        case .malformedToken(let reason): "malformed VAPID JWT: \(reason)"
        case .unsupportedHeader(let reason): "unsupported VAPID JWT header: \(reason) (expected {\"typ\":\"JWT\",\"alg\":\"ES256\"})"
        case .invalidClaim(let name, let reason): "VAPID claim `\(name)` is invalid: \(reason)"
        case .badSignature: "VAPID JWT signature does not verify with key `k`"
        case .expired(let expiration, let now): "VAPID JWT expired at \(expiration) (now \(now))"
        case .expirationTooFar(let expiration, let latest): "VAPID JWT exp \(expiration) is more than 24 h ahead (latest \(latest))"
        case .wrongAudience(let expected, let found): "VAPID JWT aud is \"\(found)\"; this push service is \"\(expected)\""
        case .keyMismatch: "VAPID key differs from the key the subscription is restricted to"
        case .signingFailed: "the VAPID private key could not sign"
        }
    }
}
