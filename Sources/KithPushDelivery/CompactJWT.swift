import Crypto
import CryptoExtras
import KithCanonical

/// Builds compact JWS tokens (RFC 7515) over canonical JSON header and claims.
enum CompactJWT {
    /// `base64url(header) . base64url(claims)`, the bytes the signature covers.
    static func signingInput(header: JSONObject, claims: JSONObject) -> String {
        Base64URL.encode(CanonicalJSON.serialize(header)) + "." + Base64URL.encode(CanonicalJSON.serialize(claims))
    }

    /// An ES256 token: ECDSA P-256 with SHA-256, the signature as raw 64-byte `r || s` (RFC 7518 §3.4).
    static func es256(header: JSONObject, claims: JSONObject, key: P256.Signing.PrivateKey) throws -> String {
        let input = signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// An RS256 token: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), as Google's OAuth JWT-bearer grant requires.
    static func rs256(header: JSONObject, claims: JSONObject, key: _RSA.Signing.PrivateKey) throws -> String {
        let input = signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
