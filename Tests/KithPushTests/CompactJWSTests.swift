import Crypto
import KithCanonical
import Testing

@testable import KithPush

/// The one ES256 compact JWS (RFC 7515 §7.1, RFC 7518 §3.4) shared by VAPID and APNs provider tokens.
@Suite struct CompactJWSTests {
    let key = P256.Signing.PrivateKey()
    let header = Array(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8)
    let payload = Array(#"{"iat":1760000000,"iss":"TEAM123456"}"#.utf8)

    @Test func signingInputIsTheTwoBase64URLPartsJoinedByADot() {
        #expect(CompactJWS.signingInput(header: header, payload: payload) == Base64URL.encode(header) + "." + Base64URL.encode(payload))
    }

    @Test func es256KeepsHeaderAndPayloadBytesAndSignsWithRawRS() throws {
        let token = try CompactJWS.es256(header: header, payload: payload, key: key)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        #expect(try Base64URL.decode(parts[0]) == header)
        #expect(try Base64URL.decode(parts[1]) == payload)
        let signature = try Base64URL.decode(parts[2])
        #expect(signature.count == 64)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func vapidTokensAreCompactJWSOverTheFixedHeader() throws {
        let signer = VAPIDSigner(signingKey: key)
        let claims = try VAPIDClaims(audience: "https://push.example.net", expiration: 1_760_003_600, subject: "mailto:ops@example.net")
        let token = try signer.authorization(for: claims, now: 1_760_000_000).token
        let prefix = CompactJWS.signingInput(header: VAPIDSigner.headerJSON, payload: claims.json) + "."
        #expect(token.hasPrefix(prefix))
    }
}
