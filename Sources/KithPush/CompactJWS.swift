import Crypto
import KithCanonical

/// Compact JWS serialization (RFC 7515 §7.1) and its ES256 signer (RFC 7518 §3.4): the one ES256 JWS of Kith,
/// used by VAPID authorizations (RFC 8292) here and by APNs provider tokens in `KithPushDelivery`.
public enum CompactJWS {
    /// Why an ES256 signature could not be made.
    public enum SigningError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The P-256 signer failed (no randomness available); nothing was produced. Retrying later may succeed.
        case signingFailed

        /// What went wrong and what to do about it.
        public var description: String {
            "ES256 signing failed (the system random generator is unavailable); nothing was signed, try again"
        }
    }

    /// `base64url(header) . base64url(payload)`: the bytes a JWS signature covers (RFC 7515 §5.1).
    ///
    /// - Parameters:
    ///   - header: the JOSE header JSON, exactly as it is to be encoded.
    ///   - payload: the payload (JWT claims JSON), exactly as it is to be encoded.
    public static func signingInput(header: [UInt8], payload: [UInt8]) -> String {
        Base64URL.encode(header) + "." + Base64URL.encode(payload)
    }

    /// A compact ES256 JWS: ECDSA P-256 with SHA-256 over ``signingInput(header:payload:)``, the signature appended
    /// as raw 64-byte `r || s` in base64url.
    ///
    /// - Throws: ``SigningError/signingFailed`` when the signer fails.
    public static func es256(header: [UInt8], payload: [UInt8], key: P256.Signing.PrivateKey) throws(SigningError) -> String {
        let input = signingInput(header: header, payload: payload)
        let signature: P256.Signing.ECDSASignature
        do { signature = try key.signature(for: Array(input.utf8)) } catch { throw .signingFailed }
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
