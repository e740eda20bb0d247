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
        let card = try await bob.contacts.card(displayName: "Bob")
        let compact = try await bob.contacts.compactCard(for: card)
        let pending = try await alice.contacts.addPending(compactText: compact.text, name: "Bobby")
        #expect(pending.feedID == bob.feedID)
        #expect(try await alice.contacts.pending().map(\.feedID) == [bob.feedID])
        #expect(try await alice.contacts.all().isEmpty)

        let record = try await alice.contacts.add(cardText: card.text)
        #expect(record.feedID == bob.feedID)
        #expect(record.localName == "Bobby")
        #expect(try await alice.contacts.pending().isEmpty)
    }

    @Test func aFullCardThatIsNotTheCommittedOneIsRefusedAndChangesNothing() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let compact = try await bob.contacts.compactCard(for: try await bob.contacts.card(displayName: "Bob"))
        try await alice.contacts.addPending(compactText: compact.text)
        let other = try await bob.contacts.card(displayName: "Bob (new card)")
        #expect(await Self.contactError { try await alice.contacts.add(cardText: other.text) } == .compactCard(.commitmentMismatch))
        #expect(try await alice.contacts.all().isEmpty)
        #expect(try await alice.contacts.pending().count == 1)
        // Scanning the new card's compact form replaces the pending contact; then the new card completes it.
        try await alice.contacts.addPending(compactText: try await bob.contacts.compactCard(for: other).text)
        #expect(try await alice.contacts.add(cardText: other.text).feedID == bob.feedID)
    }

    @Test func refusedCompactCardsStoreNothing() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let own = try await alice.contacts.compactCard(for: try await alice.contacts.card(displayName: "Alice"))
        #expect(await Self.contactError { try await alice.contacts.addPending(compactText: own.text) } == .ownCard)
        var text = Array(try await bob.contacts.compactCard(for: try await bob.contacts.card(displayName: "Bob")).text)
        text[40] = text[40] == "A" ? "B" : "A"
        await #expect(throws: KithError.self) { try await alice.contacts.addPending(compactText: String(text)) }
        #expect(await Self.contactError { try await alice.contacts.addPending(compactText: "AAAA") } == .compactCard(.invalidText("missing the KC1: prefix")))
        #expect(try await alice.contacts.pending().isEmpty)
    }

    @Test func pendingContactsAreBounded() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        let compact = try await bob.contacts.compactCard(for: try await bob.contacts.card(displayName: "Bob"))
        for second in 0..<Int64(PendingContactRecord.maximumCount + 3) {
            let identity = try Identity(seed: try Seed(bytes: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(second)) } ))
            let card = try ContactCard.create(identity: identity, displayName: "P\(second)", createdAt: MetAccounts.now)
            try alice.store.addPendingContact(try CompactContactCard.create(identity: identity, card: card), localName: nil, scannedAt: second)
        }
        try alice.store.addPendingContact(compact, localName: nil, scannedAt: 10_000)
        let pending = try await alice.contacts.pending()
        #expect(pending.count == PendingContactRecord.maximumCount)
        #expect(pending.first?.feedID == bob.feedID)
    }
}
