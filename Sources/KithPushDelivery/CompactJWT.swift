import Crypto
import CryptoExtras
import KithCanonical
import KithPush

/// Builds compact JWS tokens (RFC 7515) over canonical JSON header and claims: ES256 through KithPush's
/// `CompactJWS`, RS256 here (only FCM's OAuth grant needs it).
enum CompactJWT {
    /// `base64url(header) . base64url(claims)`, the bytes the signature covers.
    static func signingInput(header: JSONObject, claims: JSONObject) -> String {
        CompactJWS.signingInput(header: CanonicalJSON.serialize(header), payload: CanonicalJSON.serialize(claims))
    }

    /// An ES256 token: KithPush's `CompactJWS.es256` over the canonical header and claims.
    static func es256(header: JSONObject, claims: JSONObject, key: P256.Signing.PrivateKey) throws(CompactJWS.SigningError) -> String {
        try CompactJWS.es256(header: CanonicalJSON.serialize(header), payload: CanonicalJSON.serialize(claims), key: key)
    }

    /// An RS256 token: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), as Google's OAuth JWT-bearer grant requires.
    static func rs256(header: JSONObject, claims: JSONObject, key: _RSA.Signing.PrivateKey) throws -> String {
        let input = signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
