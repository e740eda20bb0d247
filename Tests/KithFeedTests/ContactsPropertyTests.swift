import Crypto
import KithCanonical
import KithIdentity
import PropertyBased
import Testing
@testable import KithFeed

@Suite struct ContactsPropertyTests {
    static let alice = FeedFixtures.alice
    static let bob = FeedFixtures.bob
    static let key = try! ContactsKey.derive(myDHKey: alice.dhKey, theirDHKey: bob.dhKey.publicKey, myFeed: alice.feedID, theirFeed: bob.feedID)

    @Test func anyPlaintextRoundTripsForAnyPosition() async {
        await propertyCheck(count: 100, input: Gen.uint8(in: 0...255).array(of: 0...600), Gen.uint32(in: 0...0xFFFF_FFFE), Gen.int(in: 1...30)) { plaintext, sequence, extra in
            let others = (0..<extra).map { _ in SymmetricKey(size: .bits256) }
            let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: others + [Self.key], sequence: sequence, feedID: Self.alice.feedID)
            #expect(try ContactsAudienceCipher.open(sealed, keys: [Self.key], sequence: sequence, feedID: Self.alice.feedID) == plaintext)
        }
    }

    @Test func anySingleByteChangeIsRejected() async throws {
        let plaintext = Array("contacts only".utf8)
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [Self.key, SymmetricKey(size: .bits256)], sequence: 4, feedID: Self.alice.feedID)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(sealed.count - 1)), Gen.uint8(in: 1...255)) { index, mask in
            var tampered = sealed
            tampered[index] ^= mask
            #expect(throws: ContactsCipherError.self) {
                try ContactsAudienceCipher.open(tampered, keys: [Self.key], sequence: 4, feedID: Self.alice.feedID)
            }
        }
    }

    @Test func arbitraryBytesNeverCrashTheDecoders() async {
        await propertyCheck(count: 500, input: Gen.uint8(in: 0...255).array(of: 0...400)) { bytes in
            _ = try? ContactsRecipientMap.decode(bytes)
            _ = try? ContactsAudienceCipher.open(bytes, keys: [Self.key], sequence: 0, feedID: Self.alice.feedID)
            _ = try? ContactCard.decode(bytes)
            _ = try? BlobCipher.open(bytes, contentHash: BlobCipher.contentHash(of: bytes), key: Base64URL.encode([UInt8](repeating: 0, count: 32)))
        }
    }

    @Test func truncatedCardsAreAlwaysRejected() async throws {
        let card = try ContactCard.create(identity: Self.alice, displayName: "Alice", createdAt: 1_790_000_000).encoded
        await propertyCheck(count: 200, input: Gen.int(in: 0...(card.count - 1))) { length in
            #expect(throws: ContactCardError.self) { try ContactCard.decode(Array(card.prefix(length))) }
        }
    }
}
