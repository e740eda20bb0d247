import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithIdentity

@Suite struct IdentityDerivationTests {
    let seed = try! Seed(bytes: (0..<32).map { UInt8($0) })

    @Test func derivationIsDeterministic() throws {
        let a = try Identity(seed: seed)
        let b = try Identity(seed: seed)
        #expect(a.publicKeys.identityKeyString == b.publicKeys.identityKeyString)
        #expect(a.publicKeys.dhKeyString == b.publicKeys.dhKeyString)
        #expect(a.publicKeys.pqKey.rawRepresentation == b.publicKeys.pqKey.rawRepresentation)
        #expect(a.feedID == b.feedID)
    }

    @Test func keysFollowTheDocumentedHKDFInputs() throws {
        let identity = try Identity(seed: seed)
        let ikm = SymmetricKey(data: (0..<32).map { UInt8($0) })
        let edSeed = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: [UInt8](), info: Array("identity_key".utf8), outputByteCount: 32)
        let expected = try Curve25519.Signing.PrivateKey(rawRepresentation: edSeed)
        #expect(expected.publicKey.rawRepresentation == identity.publicKeys.identityKey.rawRepresentation)
        let journal = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: Array("ProximityApp_Journal_v1".utf8), info: Array("journal_key".utf8), outputByteCount: 32)
        #expect(journal == identity.journalKey)
        let pqSeed = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: [UInt8](), info: Array("pq_key".utf8), outputByteCount: 64)
        let pq = try pqSeed.withUnsafeBytes { try MLKEM768.PrivateKey(seedRepresentation: Data($0), publicKey: nil) }
        #expect(pq.publicKey.rawRepresentation == identity.publicKeys.pqKey.rawRepresentation)
    }

    @Test func feedIDIsBase64URLOfSHA256OfIdentityKey() throws {
        let identity = try Identity(seed: seed)
        let digest = SHA256.hash(data: identity.publicKeys.identityKey.rawRepresentation)
        #expect(identity.feedID.string == Base64URL.encode(digest))
        #expect(identity.feedID.string.count == 43)
        #expect(identity.feedID.rawBytes == Array(digest))
    }

    @Test func distinctSeedsGiveDistinctFeeds() throws {
        let (a, _) = try Identity.generate()
        let (b, _) = try Identity.generate()
        #expect(a.feedID != b.feedID)
    }

    @Test func seedLengthIsChecked() {
        #expect(throws: IdentityError.invalidSeedLength(31)) { try Seed(bytes: [UInt8](repeating: 0, count: 31)) }
    }

    @Test(arguments: [
        "", "abc", "Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4=", "Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm+",
        "Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm5", "Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4A",
    ])
    func malformedFeedIDsAreRejected(_ text: String) {
        #expect(throws: IdentityError.self) { try FeedID(text) }
    }

    @Test func wellFormedFeedIDParses() throws {
        let id = try FeedID("Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4")
        #expect(id.rawBytes.count == 32)
        #expect(try FeedID(rawBytes: id.rawBytes) == id)
    }
}
