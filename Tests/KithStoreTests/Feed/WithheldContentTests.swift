import GRDB
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

/// Issue 11 items 13 and 14: content that cannot be shown never freezes a feed and never surfaces.
@Suite struct WithheldContentTests {
    typealias S = StoreFixtures

    /// A signed envelope whose plaintext (read by ``StoreFixtures/PlainDecryptor``) is `object`, unchecked.
    static func envelope(_ sequence: UInt32, previous: MessageID?, type: String, plaintext object: JSONObject) throws -> Envelope {
        try Envelope.sign(
            UnsignedEnvelope(sequence: sequence, timestamp: 1_743_678_000 + Int64(sequence), previous: previous, type: type, audience: .contacts,
                             content: CanonicalJSON.serialize(object)),
            with: S.alice
        )
    }

    /// Chain 0...4 whose message 1 is a post with a 2,001-character body and message 3 a profile
    /// update whose display name is too long (both `invalid_content`).
    static func chainWithInvalidContent() throws -> [Envelope] {
        let first = S.chain(1)[0]
        var longPost = JSONObject()
        longPost["type"] = .string("post")
        longPost["body"] = .string(String(repeating: "x", count: 2_001))
        let invalidPost = try envelope(1, previous: first.messageID, type: "post", plaintext: longPost)
        let second = S.chain(1, startingAt: 2, previous: invalidPost.messageID)[0]
        var profile = JSONObject()
        profile["type"] = .string("profile_update")
        profile["display_name"] = .string(String(repeating: "n", count: 65))
        let invalidProfile = try envelope(3, previous: second.messageID, type: "profile_update", plaintext: profile)
        let last = S.chain(1, startingAt: 4, previous: invalidProfile.messageID)[0]
        return [first, invalidPost, second, invalidProfile, last]
    }

    @Test func invalidContentLinksIsWithheldAndRelayed() throws {
        let chain = try Self.chainWithInvalidContent()
        for order in [chain, chain.reversed()] {
            let store = try S.store()
            let report = try store.ingest(S.lines(order), decryptor: S.PlainDecryptor())
            #expect(report.outcomes.allSatisfy { $0.label == "stored" || $0.label == "pending" })
            #expect(try store.head(of: S.alice.feedID) == FeedHead(sequence: 4, messageID: chain[4].messageID))
            #expect(try store.followedFeeds().first?.pendingCount == 0)
            let shown = try store.messages(limit: 10).map(\.sequence).sorted()
            #expect(shown == [0, 2, 4])
            #expect(try store.message(chain[1].messageID) == nil)
            // Relayed byte for byte, so copies never diverge.
            #expect(try store.export(feed: S.alice.feedID) == S.lines(chain))
            let reasons = try store.database.read { db in try String.fetchAll(db, sql: "SELECT reason FROM withheld_messages ORDER BY message_id") }
            #expect(reasons == ["invalid_content", "invalid_content"])
        }
    }

    @Test func effectsOfWithheldContentAreNotApplied() throws {
        let store = try S.store()
        let chain = try Self.chainWithInvalidContent()
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let unsealed = try store.database.read { db in
            try String.fetchOne(db, sql: "SELECT content_json FROM messages WHERE message_id = ?", arguments: [chain[3].messageID.string])
        }
        #expect(unsealed == nil)
        #expect(try store.latestProfile(of: S.alice.feedID) == nil)
    }

    /// A decryptor that fails the test if it is asked to open an envelope of an unknown type.
    struct KnownTypesOnly: ContentDecryptor {
        func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? {
            if !Content.isKnownType(envelope.type) { Issue.record("decrypted an unknown type \(envelope.type)") }
            return try envelope.contentBytes()
        }
    }

    @Test func unknownTypesAreStoredAndRelayedButNeverDecryptedOrShown() throws {
        let store = try S.store()
        let first = S.chain(1)[0]
        var poll = JSONObject()
        poll["type"] = .string("poll")
        poll["question"] = .string("lunch?")
        let unknown = try Self.envelope(1, previous: first.messageID, type: "poll", plaintext: poll)
        let next = S.chain(1, startingAt: 2, previous: unknown.messageID)[0]
        let report = try store.ingest(S.lines([first, unknown, next]), decryptor: KnownTypesOnly())
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "stored"])
        #expect(try store.messages(limit: 10).map(\.type) == ["post", "post"])
        #expect(try store.message(unknown.messageID) == nil)
        #expect(try store.export(feed: S.alice.feedID)[1] == unknown.canonicalBytes)
        let state = try store.database.read { db in try String.fetchOne(db, sql: "SELECT state FROM withheld_messages") }
        #expect(state == "unknown_type")
    }
}
