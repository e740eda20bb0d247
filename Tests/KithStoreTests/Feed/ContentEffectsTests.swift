import Crypto
import Foundation
import GRDB
import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed
@testable import KithStore

@Suite struct ContentEffectsTests {
    typealias S = StoreFixtures
    typealias C = ContactStoreTests
    static let alice2 = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA2, count: 32)))
    static let alice3 = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA3, count: 32)))

    /// Signs plaintext content as message `sequence` of `feed`, with `signer` (which differs from
    /// the feed's original key after a rotation).
    static func envelope(_ content: Content, sequence: UInt32, previous: MessageID?, feed: FeedID = S.alice.feedID, signer: Identity) throws -> Envelope {
        var object = JSONObject()
        object["audience"] = .string("contacts")
        object["content_enc"] = .string(Base64URL.encode(try content.canonicalBytes()))
        object["feed_id"] = .string(feed.string)
        object["previous"] = previous.map { .string($0.string) } ?? .null
        object["sequence"] = .integer(Int64(sequence))
        object["timestamp"] = .integer(1_790_000_000 + Int64(sequence))
        object["type"] = .string(content.type)
        object["version"] = .integer(1)
        object["signature"] = .string(Base64URL.encode(try signer.sign(Envelope.signingBytes(of: object))))
        return try Envelope.parseV1(CanonicalJSON.serialize(object))
    }

    static func rotation(to new: Identity, signedBy old: Identity?) throws -> Content {
        let keys = new.publicKeys
        let bytes = Array(keys.identityKey.rawRepresentation) + Array(keys.dhKey.rawRepresentation) + Array(keys.pqKey.rawRepresentation)
        return .keyRotation(KeyRotation(
            newIdentityKey: keys.identityKeyString, newDHKey: keys.dhKeyString, newPQKey: keys.pqKeyString,
            previousKeySignature: try old.map { Base64URL.encode(try $0.sign(bytes)) }, reason: "device_migration"
        ))
    }

    static func chain(_ steps: [(Content, Identity)]) throws -> [Envelope] {
        var out: [Envelope] = []
        for (index, step) in steps.enumerated() {
            out.append(try envelope(step.0, sequence: UInt32(index), previous: out.last?.messageID, signer: step.1))
        }
        return out
    }

    @Test func profileUpdatesKeepTheLatestNameAndAvatar() throws {
        let store = try C.localStore()
        try C.add(S.alice, to: store)
        let avatar = Base64URL.encode([UInt8](repeating: 7, count: 32))
        let chain = try Self.chain([
            (.profileUpdate(ProfileUpdate(displayName: "Alice")), S.alice),
            (.profileUpdate(ProfileUpdate(displayName: "Alice B.", avatarHash: avatar)), S.alice),
        ])
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let record = try #require(try store.contact(S.alice.feedID))
        #expect(record.displayName == "Alice B.")
        #expect(record.avatarHash == avatar)
    }

    @Test func aContactAddedLaterGetsTheLatestProfile() throws {
        let store = try C.localStore()
        try store.follow(identityKey: S.alice.publicKeys.identityKey)
        let chain = try Self.chain([
            (.profileUpdate(ProfileUpdate(displayName: "Old")), S.alice),
            (.profileUpdate(ProfileUpdate(displayName: "New")), S.alice),
        ])
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        try C.add(S.alice, to: store)
        #expect(try store.contact(S.alice.feedID)?.displayName == "New")
    }

    @Test func introductionsStageAnIntroducedNotMetRecord() throws {
        let store = try C.localStore()
        try C.add(S.alice, to: store)
        let carol = C.carol.publicKeys
        let chain = try Self.chain([
            (.contactIntroduction(ContactIntroduction(introducedFeedID: C.carol.feedID, introducedDHKey: carol.dhKeyString, introducedPQKey: carol.pqKeyString, note: "met at the meetup")), S.alice),
            // Introducing the local identity to itself, or an existing contact, stages nothing.
            (.contactIntroduction(ContactIntroduction(introducedFeedID: S.bob.feedID, introducedDHKey: S.bob.publicKeys.dhKeyString, introducedPQKey: S.bob.publicKeys.pqKeyString, note: nil)), S.alice),
        ])
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let staged = try store.introductions()
        #expect(staged.count == 1)
        #expect(staged.first?.introducedFeedID == C.carol.feedID)
        #expect(staged.first?.introducerFeedID == S.alice.feedID)
        #expect(staged.first?.note == "met at the meetup")
        #expect(try store.contact(C.carol.feedID) == nil)
        // The note is sealed at rest.
        let column = try store.database.read { db in try String.fetchOne(db, sql: "SELECT note_sealed FROM contact_introductions") }
        #expect(column?.contains("meetup") == false)
        // Meeting in person (adding the card) turns the introduction into a contact.
        try C.add(C.carol, to: store)
        #expect(try store.introductions().isEmpty)
    }

    @Test func tombstonesHideTheTargetAndClearItsContent() throws {
        let store = try C.localStore()
        try C.add(S.alice, to: store)
        let first = try Self.envelope(.post(Post(body: "oops")), sequence: 0, previous: nil, signer: S.alice)
        let tomb = try Self.envelope(.tombstone(Tombstone(targetMessage: first.messageID, reason: "retracted")), sequence: 1, previous: first.messageID, signer: S.alice)
        _ = try store.ingest(S.lines([first, tomb]), decryptor: S.PlainDecryptor())
        let held = try #require(try store.message(first.messageID))
        #expect(held.tombstoned)
        #expect(held.content == nil)
    }

    @Test func aFeedThatRotatesTwiceIsVerifiedWithEachNewKey() throws {
        let store = try C.localStore()
        try C.add(S.alice, to: store)
        let chain = try Self.chain([
            (.post(Post(body: "before")), S.alice),
            (try Self.rotation(to: Self.alice2, signedBy: S.alice), S.alice),
            (.post(Post(body: "after first rotation")), Self.alice2),
            (try Self.rotation(to: Self.alice3, signedBy: Self.alice2), Self.alice2),
            (.post(Post(body: "after second rotation")), Self.alice3),
        ])
        let report = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let rotations = try store.keyRotations(feed: S.alice.feedID)
        #expect(rotations.first?.sequence == 1)
        #expect(rotations.first?.verified == true)
        let keys = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT from_sequence, identity_key_pub, verified FROM feed_keys ORDER BY from_sequence").map {
                ($0["from_sequence"] as Int64, $0["identity_key_pub"] as String, $0["verified"] as Int64)
            }
        }
        #expect(keys.map(\.0) == [2, 4])
        #expect(keys.map(\.1) == [Self.alice2.publicKeys.identityKeyString, Self.alice3.publicKeys.identityKeyString])
        #expect(keys.allSatisfy { $0.2 == 1 })
        // The contact's keys follow the rotation and its contacts key must be re-derived.
        let record = try #require(try store.contact(S.alice.feedID))
        #expect(record.identityKey == Self.alice2.publicKeys.identityKeyString || record.identityKey == Self.alice3.publicKeys.identityKeyString)
        #expect(record.keyIsStale)
        // Messages signed with the rotated keys link: ingest verifies them with (new key, original feed key).
        let verified = try store.keyRotations(feed: S.alice.feedID).map(\.verified)
        let latestKey = try store.contact(S.alice.feedID)?.identityKey
        let latestDH = try store.contactDHKeys()[S.alice.feedID]?.first
        #expect(report.outcomes.map(\.label) == Array(repeating: "stored", count: 5))
        #expect(verified == [true, true])
        #expect(latestKey == Self.alice3.publicKeys.identityKeyString)
        #expect(latestDH == Self.alice3.publicKeys.dhKeyString)
        #expect(report.outcomes.prefix(2).map(\.label) == ["stored", "stored"])
    }

    @Test func anUnverifiedRotationIsFlaggedAndNeverTrusted() throws {
        let store = try C.localStore()
        try C.add(S.alice, to: store)
        // The rotation's previous_key_sig is made by a stranger, not by Alice's key.
        let chain = try Self.chain([
            (.post(Post(body: "before")), S.alice),
            (try Self.rotation(to: Self.alice2, signedBy: C.carol), S.alice),
            (.post(Post(body: "signed with the unverified key")), Self.alice2),
        ])
        let report = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        #expect(try store.keyRotations(feed: S.alice.feedID).map(\.verified) == [false])
        let trusted = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_keys") }
        #expect(trusted == 0)
        #expect(report.outcomes.map(\.label).prefix(2) == ["stored", "stored"])
        #expect(report.outcomes.last?.label.hasPrefix("rejected") == true)
        #expect(try store.contact(S.alice.feedID)?.identityKey == S.alice.publicKeys.identityKeyString)
        // A rotation without any previous_key_sig is flagged the same way.
        let lost = try Self.chain([(try Self.rotation(to: Self.alice2, signedBy: nil), S.alice)])
        let other = try C.localStore()
        try C.add(S.alice, to: other)
        _ = try other.ingest(S.lines(lost), decryptor: S.PlainDecryptor())
        #expect(try other.keyRotations().map(\.verified) == [false])
    }
}
