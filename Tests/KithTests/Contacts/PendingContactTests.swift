import Foundation
import KithAccountFixtures
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// A scanned compact card is a pending contact until the full card it commits to is added (docs/FEED-FORMAT.md 11.9).
@Suite struct PendingContactTests {
    static func account(_ byte: UInt8) throws -> Account { try MetAccounts.account(byte) }

    /// The contact error `body` throws, nil when it succeeds or throws something else.
    static func contactError<T>(_ body: () async throws -> T) async -> ContactError? {
        do {
            _ = try await body()
            return nil
        } catch let KithError.contacts(error) {
            return error
        } catch {
            return nil
        }
    }

    @Test func aCompactCardIsPendingUntilItsFullCardArrives() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let card = try await bob.contactCard(displayName: "Bob")
        let compact = try await bob.compactContactCard(for: card)
        let pending = try await alice.addPendingContact(compactText: compact.text, name: "Bobby")
        #expect(pending.feedID == bob.feedID)
        #expect(try await alice.pendingContacts().map(\.feedID) == [bob.feedID])
        #expect(try await alice.contacts().isEmpty)

        let record = try await alice.addContact(cardText: card.text)
        #expect(record.feedID == bob.feedID)
        #expect(record.localName == "Bobby")
        #expect(try await alice.pendingContacts().isEmpty)
    }

    @Test func aFullCardThatIsNotTheCommittedOneIsRefusedAndChangesNothing() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let compact = try await bob.compactContactCard(for: try await bob.contactCard(displayName: "Bob"))
        try await alice.addPendingContact(compactText: compact.text)
        let other = try await bob.contactCard(displayName: "Bob (new card)")
        #expect(await Self.contactError { try await alice.addContact(cardText: other.text) } == .compactCard(.commitmentMismatch))
        #expect(try await alice.contacts().isEmpty)
        #expect(try await alice.pendingContacts().count == 1)
        // Scanning the new card's compact form replaces the pending contact; then the new card completes it.
        try await alice.addPendingContact(compactText: try await bob.compactContactCard(for: other).text)
        #expect(try await alice.addContact(cardText: other.text).feedID == bob.feedID)
    }

    @Test func refusedCompactCardsStoreNothing() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let own = try await alice.compactContactCard(for: try await alice.contactCard(displayName: "Alice"))
        #expect(await Self.contactError { try await alice.addPendingContact(compactText: own.text) } == .ownCard)
        var text = Array(try await bob.compactContactCard(for: try await bob.contactCard(displayName: "Bob")).text)
        text[40] = text[40] == "A" ? "B" : "A"
        await #expect(throws: KithError.self) { try await alice.addPendingContact(compactText: String(text)) }
        #expect(await Self.contactError { try await alice.addPendingContact(compactText: "AAAA") } == .compactCard(.invalidText("missing the KC1: prefix")))
        #expect(try await alice.pendingContacts().isEmpty)
    }

    @Test func pendingContactsAreBounded() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let compact = try await bob.compactContactCard(for: try await bob.contactCard(displayName: "Bob"))
        for second in 0..<Int64(PendingContactRecord.maximumCount + 3) {
            let identity = try Identity(seed: try Seed(bytes: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(second)) } ))
            let card = try ContactCard.create(identity: identity, displayName: "P\(second)", createdAt: MetAccounts.now)
            try alice.store.addPendingContact(try CompactContactCard.create(identity: identity, card: card), localName: nil, scannedAt: second)
        }
        try alice.store.addPendingContact(compact, localName: nil, scannedAt: 10_000)
        let pending = try await alice.pendingContacts()
        #expect(pending.count == PendingContactRecord.maximumCount)
        #expect(pending.first?.feedID == bob.feedID)
    }
}
