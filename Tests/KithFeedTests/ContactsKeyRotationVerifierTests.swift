import Crypto
import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

@Suite struct ContactsKeyRotationVerifierTests {
    let old = FeedFixtures.alice
    let new = FeedFixtures.bob

    func rotation(signedBy signer: Identity?) throws -> KeyRotation {
        let keys = new.publicKeys
        let bytes = Array(keys.identityKey.rawRepresentation) + Array(keys.dhKey.rawRepresentation) + Array(keys.pqKey.rawRepresentation)
        let signature = try signer.map { Base64URL.encode(try $0.sign(bytes)) }
        return KeyRotation(newIdentityKey: keys.identityKeyString, newDHKey: keys.dhKeyString, newPQKey: keys.pqKeyString,
                           previousKeySignature: signature, reason: "scheduled_rotation")
    }

    @Test func verifiesTheOldKeysSignatureOverTheConcatenatedNewKeys() throws {
        let valid = try rotation(signedBy: old)
        #expect(KeyRotationVerifier.signedBytes(valid)?.count == 1_248)
        #expect(KeyRotationVerifier.isVerified(valid, oldIdentityKey: old.publicKeys.identityKey))
        #expect(KeyRotationVerifier.newIdentityKey(valid)?.rawRepresentation == new.publicKeys.identityKey.rawRepresentation)
    }

    @Test func flagsMissingOrForeignSignatures() throws {
        #expect(!KeyRotationVerifier.isVerified(try rotation(signedBy: nil), oldIdentityKey: old.publicKeys.identityKey))
        #expect(!KeyRotationVerifier.isVerified(try rotation(signedBy: new), oldIdentityKey: old.publicKeys.identityKey))
    }

    /// A rotation to a key outside the strict rule (here the identity point, which verifies a
    /// signature on any message) is never adopted, even when the old key signed it.
    @Test func aRotationToASmallOrderKeyIsNotAdopted() throws {
        let identityPoint = [UInt8(1)] + [UInt8](repeating: 0, count: 31)
        let keys = new.publicKeys
        let bytes = identityPoint + Array(keys.dhKey.rawRepresentation) + Array(keys.pqKey.rawRepresentation)
        let rotation = KeyRotation(newIdentityKey: Base64URL.encode(identityPoint), newDHKey: keys.dhKeyString, newPQKey: keys.pqKeyString,
                                   previousKeySignature: Base64URL.encode(try old.sign(bytes)), reason: "scheduled_rotation")
        #expect(!KeyRotationVerifier.isVerified(rotation, oldIdentityKey: old.publicKeys.identityKey))
        #expect(KeyRotationVerifier.newIdentityKey(rotation) == nil)
    }
}
