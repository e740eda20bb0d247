import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithPush

/// RFC 8292 VAPID: signing, the header form, verification and every rejection.
@Suite struct VAPIDTests {
    let signer = VAPIDSigner(signingKey: P256.Signing.PrivateKey())
    let now: Int64 = 1_760_000_000
    let verifier = VAPIDVerifier(audience: "https://push.example.net")

    func authorization(expiresIn lifetime: Int64 = 3600, audience: String = "https://push.example.net") throws -> VAPIDAuthorization {
        try signer.authorization(for: VAPIDClaims(audience: audience, expiration: now + lifetime, subject: "mailto:ops@example.net"), now: now)
    }

    func segments(_ token: String) -> [String] { token.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    @Test func tokenHasTheRFCsShape() throws {
        let auth = try authorization()
        let parts = segments(auth.token)
        #expect(parts.count == 3)
        #expect(try Base64URL.decode(parts[0]) == Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        #expect(String(decoding: try Base64URL.decode(parts[1]), as: UTF8.self)
            == #"{"aud":"https://push.example.net","exp":\#(now + 3600),"sub":"mailto:ops@example.net"}"#)
        #expect(try Base64URL.decode(parts[2]).count == 64)
        #expect(auth.headerValue == "vapid t=\(auth.token), k=\(Base64URL.encode(signer.publicKey))")
        #expect(auth.publicKey.count == 65)
    }

    @Test func signatureVerifiesWithSwiftCryptoDirectly() throws {
        let auth = try authorization()
        let parts = segments(auth.token)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Base64URL.decode(parts[2]))
        #expect(signer.signingKey.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func verifiesItsOwnAuthorization() throws {
        let auth = try authorization()
        let claims = try verifier.verify(headerValue: auth.headerValue, now: now, restrictedTo: signer.publicKey)
        #expect(claims.audience == "https://push.example.net")
        #expect(claims.expiration == now + 3600)
        #expect(claims.subject == "mailto:ops@example.net")
    }

    @Test func parsesHeaderVariants() throws {
        let auth = try authorization()
        let key = Base64URL.encode(auth.publicKey)
        for value in ["vapid t=\(auth.token),k=\(key)", "Vapid  k=\(key) , t=\(auth.token)", "vapid t=\(auth.token), k=\(key), extra=1"] {
            #expect(try VAPIDAuthorization.parse(value) == auth)
        }
    }

    @Test func rejectsMalformedHeaders() throws {
        let auth = try authorization()
        let key = Base64URL.encode(auth.publicKey)
        #expect(throws: VAPIDError.malformedHeader("scheme is not vapid")) { try VAPIDAuthorization.parse("Bearer t=\(auth.token), k=\(key)") }
        #expect(throws: VAPIDError.malformedHeader("no parameters")) { try VAPIDAuthorization.parse("vapid") }
        #expect(throws: VAPIDError.missingParameter("k")) { try VAPIDAuthorization.parse("vapid t=\(auth.token)") }
        #expect(throws: VAPIDError.missingParameter("t")) { try VAPIDAuthorization.parse("vapid k=\(key)") }
        #expect(throws: VAPIDError.duplicateParameter("t")) { try VAPIDAuthorization.parse("vapid t=a, t=b, k=\(key)") }
        #expect(throws: VAPIDError.malformedHeader("parameter without '='")) { try VAPIDAuthorization.parse("vapid t=a, k") }
        #expect(throws: VAPIDError.self) { try VAPIDAuthorization.parse("vapid t=a, k=AAAA") }
        #expect(throws: VAPIDError.self) { try VAPIDAuthorization.parse("vapid t=a, k=\(key)=") }
        #expect(throws: VAPIDError.headerTooLarge(3000)) { try VAPIDAuthorization.parse(String(repeating: "a", count: 3000)) }
    }

    @Test func rejectsExpiryOutsideTheWindow() throws {
        #expect(throws: VAPIDError.expired(expiration: now, now: now)) { try authorization(expiresIn: 0) }
        #expect(throws: VAPIDError.expirationTooFar(expiration: now + 86_401, latest: now + 86_400)) { try authorization(expiresIn: 86_401) }
        let auth = try authorization(expiresIn: 86_400)
        _ = try verifier.verify(auth, now: now)
        #expect(throws: VAPIDError.expired(expiration: now + 86_400, now: now + 90_000)) { try verifier.verify(auth, now: now + 90_000) }
        #expect(throws: VAPIDError.self) { try verifier.verify(auth, now: now - 3600) }
        // Within the tolerated skew on both ends.
        _ = try verifier.verify(auth, now: now + 86_400 + 30)
        _ = try verifier.verify(auth, now: now - 30)
        #expect(throws: VAPIDError.self) { try verifier.verify(auth, now: Int64.min) }
        #expect(throws: VAPIDError.self) { try verifier.verify(auth, now: Int64.max) }
    }

    @Test func rejectsWrongAudienceAndKey() throws {
        let auth = try authorization(audience: "https://other.example.net")
        #expect(throws: VAPIDError.wrongAudience(expected: "https://push.example.net", found: "https://other.example.net")) {
            try verifier.verify(auth, now: now)
        }
        let other = VAPIDSigner(signingKey: P256.Signing.PrivateKey())
        #expect(throws: VAPIDError.keyMismatch) { try verifier.verify(try authorization(), now: now, restrictedTo: other.publicKey) }
        // A token signed by one key presented with another key.
        let swapped = try VAPIDAuthorization(token: try authorization().token, publicKey: other.publicKey)
        #expect(throws: VAPIDError.badSignature) { try verifier.verify(swapped, now: now) }
    }

    @Test func rejectsTamperedTokens() throws {
        let auth = try authorization()
        let parts = segments(auth.token)
        func verify(_ token: String) throws { _ = try verifier.verify(try VAPIDAuthorization(token: token, publicKey: auth.publicKey), now: now) }
        let otherClaims = Base64URL.encode(Array(#"{"aud":"https://push.example.net","exp":\#(now + 7200)}"#.utf8))
        #expect(throws: VAPIDError.badSignature) { try verify(parts[0] + "." + otherClaims + "." + parts[2]) }
        let hs256 = Base64URL.encode(Array(#"{"typ":"JWT","alg":"HS256"}"#.utf8))
        #expect(throws: VAPIDError.unsupportedHeader("alg is not ES256")) { try verify(hs256 + "." + parts[1] + "." + parts[2]) }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
        #expect(throws: VAPIDError.unsupportedHeader("alg is not ES256")) { try verify(none + "." + parts[1] + ".") }
        #expect(throws: VAPIDError.self) { try verify(parts[0] + "." + parts[1]) }
        #expect(throws: VAPIDError.self) { try verify(parts[0] + "." + parts[1] + "." + parts[2] + ".x") }
        #expect(throws: VAPIDError.self) { try verify("") }
        #expect(throws: VAPIDError.self) { try verify("!!.!!.!!") }
        let notJSON = Base64URL.encode(Array("hello".utf8))
        #expect(throws: VAPIDError.self) { try verify(notJSON + "." + parts[1] + "." + parts[2]) }
        let array = Base64URL.encode(Array("[1]".utf8))
        #expect(throws: VAPIDError.malformedToken("header is not a JSON object")) { try verify(array + "." + parts[1] + "." + parts[2]) }
        let der = Base64URL.encode([UInt8](repeating: 1, count: 70))
        #expect(throws: VAPIDError.self) { try verify(parts[0] + "." + parts[1] + "." + der) }
        var flipped = try Base64URL.decode(parts[2])
        flipped[10] ^= 1
        #expect(throws: VAPIDError.badSignature) { try verify(parts[0] + "." + parts[1] + "." + Base64URL.encode(flipped)) }
    }

    @Test func rejectsBadClaimsAtSigning() {
        #expect(throws: VAPIDError.self) { try VAPIDClaims(audience: "https://push.example.net/path", expiration: 1, subject: nil) }
        #expect(throws: VAPIDError.self) { try VAPIDClaims(audience: "ftp://push.example.net", expiration: 1, subject: nil) }
        #expect(throws: VAPIDError.self) { try VAPIDClaims(audience: "https://", expiration: 1, subject: nil) }
        #expect(throws: VAPIDError.self) { try VAPIDClaims(audience: "https://a.example", expiration: 1, subject: "ops@example.net") }
        #expect(throws: VAPIDError.self) { try signer.authorization(pushResource: "https://a.example/p", subject: nil, now: now, lifetime: 0) }
        #expect(throws: VAPIDError.self) { try signer.authorization(pushResource: "https://a.example/p", subject: nil, now: Int64.max) }
    }

    @Test func originOfAPushResource() throws {
        #expect(try VAPIDClaims.origin(of: "https://Push.Example.net/wpush/v2/abc?x=1") == "https://push.example.net")
        #expect(try VAPIDClaims.origin(of: "http://127.0.0.1:18766/push/abc") == "http://127.0.0.1:18766")
        #expect(throws: VAPIDError.self) { try VAPIDClaims.origin(of: "push.example.net/abc") }
        let auth = try signer.authorization(pushResource: "http://127.0.0.1:18766/push/abc", subject: nil, now: now)
        let claims = try VAPIDVerifier(audience: "http://127.0.0.1:18766").verify(auth, now: now)
        #expect(claims.expiration == now + 43_200)
        #expect(claims.subject == nil)
    }

    @Test func errorsHaveDistinctCodes() {
        let errors: [VAPIDError] = [.malformedHeader(""), .missingParameter(""), .duplicateParameter(""), .headerTooLarge(0), .invalidPublicKey(""),
            .malformedToken(""), .unsupportedHeader(""), .invalidClaim(name: "", reason: ""), .badSignature, .expired(expiration: 0, now: 0),
            .expirationTooFar(expiration: 0, latest: 0), .wrongAudience(expected: "", found: ""), .keyMismatch, .signingFailed]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors { #expect(!error.description.isEmpty) }
    }
}
