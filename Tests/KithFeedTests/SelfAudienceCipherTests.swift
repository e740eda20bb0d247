import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithFeed

@Suite struct SelfAudienceCipherTests {
    typealias F = FeedFixtures

    @Test func nonceIsSHA256OfBigEndianSequenceAndFeedID() {
        let nonce = SelfAudienceCipher.nonce(sequence: 258, feedID: F.alice.feedID)
        let input: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 2] + Array(F.alice.feedID.string.utf8)
        #expect(nonce == Array(SHA256.hash(data: input).prefix(12)))
    }

    @Test func sealsAndOpensWithTheJournalKeyOnly() throws {
        let plain = Array("{\"body\":\"x\",\"type\":\"post\"}".utf8)
        let sealed = try SelfAudienceCipher.seal(plain, key: F.alice.journalKey, sequence: 5, feedID: F.alice.feedID)
        #expect(sealed.count == plain.count + 16)
        #expect(try SelfAudienceCipher.open(sealed, key: F.alice.journalKey, sequence: 5, feedID: F.alice.feedID) == plain)
        #expect(F.code { _ = try SelfAudienceCipher.open(sealed, key: F.bob.journalKey, sequence: 5, feedID: F.alice.feedID) } == "decryption_failed")
        #expect(F.code { _ = try SelfAudienceCipher.open(sealed, key: F.alice.journalKey, sequence: 6, feedID: F.alice.feedID) } == "decryption_failed")
        #expect(F.code { _ = try SelfAudienceCipher.open([1, 2, 3], key: F.alice.journalKey, sequence: 5, feedID: F.alice.feedID) } == "decryption_failed")
    }
}
