import Foundation
import KithFeed
import KithIdentity
import Testing
@testable import Kith
@testable import KithStore

/// Every failure surfaces as its domain's ``KithError`` case with the underlying typed error;
/// nothing becomes a catch-all.
@Suite struct KithErrorTests {
    static func temporaryHome() -> AccountHome {
        AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-errors-\(UUID().uuidString)"))
    }

    @Test func aWrongPassphraseIsAVaultError() async throws {
        let home = Self.temporaryHome()
        _ = try await Account.create(home: home, scrypt: .testing, passphrase: { "right" })
        await #expect {
            try await Account.open(home: home, passphrase: { "wrong" })
        } throws: { error in
            guard case .vault(.wrongPassphrase)? = error as? KithError else { return false }
            return true
        }
    }

    @Test func aBrokenRatchetStateIsARatchetError() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        let handover = try await bob.direct.prekeyHandover(for: alice.feedID, count: 5)
        try await alice.store.database.write { try $0.execute(sql: "DROP TABLE peer_prekeys") }
        await #expect {
            try await alice.direct.importPrekeyHandover(handover.text, from: bob.feedID)
        } throws: { error in
            guard case .ratchet(.storage)? = error as? KithError else { return false }
            return true
        }
    }

    @Test func aFailingStoreIsAStoreError() async throws {
        let alice = try Account.inMemory()
        try await alice.store.database.write { try $0.execute(sql: "DROP TABLE messages") }
        await #expect {
            try await alice.feed.timeline()
        } throws: { error in
            guard case .store? = error as? KithError else { return false }
            return true
        }
    }

    @Test func aDamagedEntryIsAFeedError() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        _ = alice
        await #expect {
            try await bob.feed.importKnown(lines: [Array("{\"not\":\"an envelope\"}".utf8)])
        } throws: { error in
            guard case .feed? = error as? KithError else { return false }
            return true
        }
    }

    @Test func contactProblemsAreContactErrors() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        let stranger = try Account.inMemory()
        await #expect {
            try await alice.contacts.resolve("nobody")
        } throws: { error in
            guard case .contacts(.notFound("nobody"))? = error as? KithError else { return false }
            return true
        }
        await #expect {
            try await alice.direct.send("hi", to: stranger.feedID)
        } throws: { error in
            guard case .contacts(.notAContact(let feed))? = error as? KithError else { return false }
            return feed == stranger.feedID
        }
        await #expect {
            try await alice.contacts.add(card: try await alice.contacts.card(displayName: "me"))
        } throws: { error in
            guard case .contacts(.ownCard)? = error as? KithError else { return false }
            return true
        }
        await #expect {
            try await alice.contacts.add(cardText: "not a card")
        } throws: { error in
            guard case .contacts(.card)? = error as? KithError else { return false }
            return true
        }
        await #expect {
            try await alice.contacts.introduce(bob.feedID, to: bob.feedID)
        } throws: { error in
            guard case .contacts(.introductionToThemselves)? = error as? KithError else { return false }
            return true
        }
    }

    @Test func badInputIsAnInputError() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        #expect {
            try FeedLineReader.open(path: "/nonexistent/kith/feed.jsonl")
        } throws: { error in
            guard case .input(.file(let path, _))? = error as? KithError else { return false }
            return path == "/nonexistent/kith/feed.jsonl"
        }
        await #expect {
            try await alice.direct.importPrekeyHandover("not a handover!", from: bob.feedID)
        } throws: { error in
            guard case .input(.prekeyHandover)? = error as? KithError else { return false }
            return true
        }
    }
}
