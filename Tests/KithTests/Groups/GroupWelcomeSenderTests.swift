@testable import Kith
import KithAccountFixtures
import KithCanonical
import KithGroups
import KithIdentity
import KithStore
import Testing

/// A KeyPackage made for one contact lets that contact alone add this identity (docs/GROUPS.md, "Automatic offers",
/// *Made for one contact*): a contact who passes it on cannot get this identity added by someone else.
@Suite struct GroupWelcomeSenderTests {
    /// Bob's KeyPackage made for Alice, passed by Alice to Carol (a contact of Bob's too): Carol's Welcome is refused and
    /// recorded; the KeyPackage stays, and Alice's Welcome with it still works.
    @Test func aWelcomeFromAnotherContactThanTheKeyPackagesRecipientIsRefused() async throws {
        let alice = try Account.inMemory()
        let bob = try Account.inMemory()
        let carol = try Account.inMemory()
        for (one, other, name) in [(alice, bob, "Bob"), (bob, alice, "Alice"), (carol, bob, "Bob"), (bob, carol, "Carol")] {
            try await one.contacts.add(cardText: try await other.contacts.card(displayName: name).text, name: name)
        }
        let madeForAlice = try await bob.groups.keyPackageHandover(for: alice.feedID)
        try await alice.groups.importKeyPackage(madeForAlice, from: bob.feedID)
        // Alice passes it on; it is Bob's, signed by him, so Carol's import checks pass.
        try await carol.groups.importKeyPackage(madeForAlice, from: bob.feedID)

        let carols = try await carol.groups.create(name: "carol's")
        #expect(try await carol.groups.add(carols.id, contacts: [bob.feedID]).members.count == 2)
        _ = try await bob.feed.importKnown(lines: try await carol.feed.export())
        await #expect(throws: KithError.self) { try await bob.groups.summary(carols.id) }
        let refused = try bob.store.readGroupState { access in try access.refusedWelcomes() }
        #expect(refused.count == 1 && refused.first?.reason.contains("made for another contact than its sender") == true)
        #expect(try bob.store.readGroupState { access in try access.keyPackageCounts() }[alice.feedID.string]?.sharedOutstanding == 1)

        let alices = try await alice.groups.create(name: "alice's")
        try await alice.groups.add(alices.id, contacts: [bob.feedID])
        _ = try await bob.feed.importKnown(lines: try await alice.feed.export())
        #expect(try await bob.groups.summary(alices.id).status == .active)
        #expect(try bob.store.readGroupState { access in try access.refusedWelcomes() }.count == 1)
    }
}
