import Crypto
import KithIdentity
import KithRatchet
import Testing

@Suite struct HybridX3DHTests {
    @Test(arguments: [false, true])
    func bothSidesDeriveTheSameMasterSecret(useOneTimePrekey: Bool) throws {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let oneTimeKey = Curve25519.KeyAgreement.PrivateKey()
        let oneTime = useOneTimePrekey ? OneTimePrekeyPublic(id: 9, publicKey: Array(oneTimeKey.publicKey.rawRepresentation)) : nil
        let result = try HybridX3DH.initiate(local: alice.keys, bundle: try bob.bundle(oneTimePrekey: oneTime), entropy: SystemEntropySource())
        let responder = try HybridX3DH.respond(
            local: bob.keys, peer: try alice.peer, prelude: result.prelude, oneTimePrekey: useOneTimePrekey ? oneTimeKey : nil
        )
        #expect(result.masterSecret == responder)
        #expect(result.prelude.oneTimePrekeyID == oneTime?.id)
        // Omitting DH4 on one side gives a different secret.
        if useOneTimePrekey {
            let without = try HybridX3DH.respond(local: bob.keys, peer: try alice.peer, prelude: result.prelude, oneTimePrekey: nil)
            #expect(without != result.masterSecret)
        }
    }

    @Test func allZeroDHOutputIsRejected() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        // u = 0 would give an all-zero secret; the parser refuses it first, the agreement check is the backstop.
        #expect(throws: RatchetError.lowOrderPoint) { try X25519Agreement.publicKey([UInt8](repeating: 0, count: 32)) }
        let raw = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        #expect(throws: RatchetError.allZeroSharedSecret) { try X25519Agreement.sharedSecret(key, raw) }
    }

    @Test func lowOrderSignedPrekeyIsRejected() throws {
        let bob = try Fixtures.bob()
        #expect(throws: RatchetError.lowOrderPoint) {
            try PrekeyBundle(peer: try bob.peer, signedPrekey: [1] + [UInt8](repeating: 0, count: 31), oneTimePrekey: nil)
        }
    }

    @Test func invalidFeedIDsAndAudiencesAreRejected() {
        #expect(throws: RatchetError.invalidFeedID("short")) { try DirectMessageContext(feedID: "short", sequence: 1, audience: "x") }
        let valid = FeedID(ed25519PublicKey: [UInt8](repeating: 1, count: 32)).string
        #expect(throws: RatchetError.audienceTooLong(256)) {
            try DirectMessageContext(feedID: valid, sequence: 1, audience: String(repeating: "a", count: 256))
        }
    }
}
