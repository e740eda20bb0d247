import KithIdentity
import KithMLS
import Testing

@testable import KithGroups

/// A member's state stored in two parts (the per-epoch part and the message-key ratchets): restored, it continues
/// exactly like the state that never left memory; neither part restores without the other, and parts that do not
/// belong together are refused.
@Suite struct GroupStateSplitTests {
    typealias Fixture = GroupMembershipTests

    static func restored(_ member: GroupMembership) throws -> GroupMembership {
        try GroupMembership(serialized: try member.serializedWithoutRatchets(), ratchets: try member.serializedRatchets(), now: Fixture.now)
    }

    static func message(_ text: String, from sender: inout GroupMembership) throws -> GroupWireMessage {
        try GroupWireMessage(try sender.encrypt(Array(text.utf8)).tlsEncoded, group: sender.id)
    }

    static func text(_ receipt: GroupReceipt) -> String? {
        if case .content(let bytes, _) = receipt { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    @Test func aRestoredSplitStateContinuesLikeTheOneInMemory() throws {
        var (alice, bob, _) = try Fixture.trio()
        let first = try Self.message("one", from: &alice)
        #expect(Self.text(try bob.receive(first, from: alice.ownFeed)) == "one")
        // Both sides go through the two stored parts after every step.
        alice = try Self.restored(alice)
        bob = try Self.restored(bob)
        #expect(try bob.serializedRatchets() == (try Self.restored(bob)).serializedRatchets())
        let second = try Self.message("two", from: &alice)
        var twin = bob
        bob = try Self.restored(bob)
        #expect(Self.text(try bob.receive(second, from: alice.ownFeed)) == "two")
        #expect(Self.text(try twin.receive(second, from: alice.ownFeed)) == "two")
        #expect(try bob.serializedRatchets() == twin.serializedRatchets())
        // A key used up stays used up across the restore: the same message does not open twice.
        bob = try Self.restored(bob)
        #expect(throws: GroupError.self) { _ = try bob.receive(second, from: alice.ownFeed) }
        // A commit moves both parts to the next epoch.
        let update = try alice.updateKeys()
        _ = try bob.receive(try Fixture.wire(update, alice.id), from: alice.ownFeed)
        bob = try Self.restored(bob)
        alice = try Self.restored(alice)
        #expect(bob.epoch == 2 && alice.epoch == 2)
        #expect(Self.text(try bob.receive(try Self.message("three", from: &alice), from: alice.ownFeed)) == "three")
    }

    @Test func thePerEpochPartHoldsNoMessageKey() throws {
        var (alice, bob, _) = try Fixture.trio()
        let message = try Self.message("secret", from: &alice)
        // Without its ratchets the per-epoch part cannot decrypt: its secret trees are empty.
        var bare = bob
        bare.state = bob.state.withoutRatchets()
        #expect(throws: GroupError.self) { _ = try bare.receive(message, from: alice.ownFeed) }
        #expect(Self.text(try bob.receive(message, from: alice.ownFeed)) == "secret")
    }

    @Test func aPartWithoutTheOtherOrFromElsewhereIsRefused() throws {
        var (alice, bob, carol) = try Fixture.trio()
        let epochPart = try bob.serializedWithoutRatchets()
        let ratchets = try bob.serializedRatchets()
        // The per-epoch part alone, and a whole state with ratchets.
        #expect(throws: GroupError.self) { _ = try GroupMembership(serialized: epochPart, ratchets: nil, now: Fixture.now) }
        #expect(throws: GroupError.self) { _ = try GroupMembership(serialized: try bob.serialized(), ratchets: ratchets, now: Fixture.now) }
        // Ratchets of another group, of another epoch, damaged, or a whole state passed as ratchets.
        let stranger = GroupMembershipTests.Person()
        let other = try GroupMembership.create(id: .random(), owner: stranger.feed, identityKey: stranger.key, now: Fixture.now)
        #expect(throws: GroupError.self) {
            _ = try GroupMembership(serialized: epochPart, ratchets: try other.serializedRatchets(), now: Fixture.now)
        }
        let update = try alice.updateKeys()
        _ = try carol.receive(try Fixture.wire(update, alice.id), from: alice.ownFeed)
        #expect(throws: GroupError.self) {
            _ = try GroupMembership(serialized: epochPart, ratchets: try carol.serializedRatchets(), now: Fixture.now)
        }
        for index in [0, ratchets.count / 2, ratchets.count - 1] {
            var damaged = ratchets
            damaged[index] ^= 0x40
            #expect(throws: GroupError.self) { _ = try GroupMembership(serialized: epochPart, ratchets: damaged, now: Fixture.now) }
        }
        #expect(throws: GroupError.self) { _ = try GroupMembership(serialized: epochPart, ratchets: try bob.state.serializedState(), now: Fixture.now) }
        #expect(throws: GroupError.self) { _ = try GroupMembership(serialized: epochPart, ratchets: Array(ratchets.prefix(20)), now: Fixture.now) }
    }

    /// A whole state written before the split (version 1) still restores, and continues in two parts.
    @Test func aWholeStateFromBeforeTheSplitRestoresAndSplits() throws {
        var (alice, bob, _) = try Fixture.trio()
        var old = try GroupMembership(serialized: try bob.serialized(), now: Fixture.now)
        #expect(Self.text(try old.receive(try Self.message("after upgrade", from: &alice), from: alice.ownFeed)) == "after upgrade")
        old = try Self.restored(old)
        #expect(Self.text(try old.receive(try Self.message("split", from: &alice), from: alice.ownFeed)) == "split")
    }
}
