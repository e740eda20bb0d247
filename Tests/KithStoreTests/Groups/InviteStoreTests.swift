import Crypto
import Testing

@testable import KithStore

/// Migration `v10-invites`: consumed single-use invites and join requests sent.
@Suite struct InviteStoreTests {
    static let creator = String(repeating: "C", count: 43)

    @Test func anInviteIsConsumedOnceOnly() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.withGroupState { access in
            #expect(try !access.isInviteConsumed("invite-1"))
            try access.consumeInvite("invite-1", group: "g", requester: "r1")
            #expect(try access.isInviteConsumed("invite-1"))
        }
        // A second consumption of the same invite fails (the primary key), so a transaction adding a second member
        // with it rolls back whole.
        #expect(throws: (any Error).self) {
            try store.withGroupState { access in try access.consumeInvite("invite-1", group: "g", requester: "r2") }
        }
        #expect(try store.readGroupState { try $0.consumedInviteCount() } == 1)
    }

    @Test func aJoinRequestSettlesOnce() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.withGroupState { access in
            try access.recordJoinRequest(creator: Self.creator, tag: "AbCdEf0123", inviteID: "i")
            #expect(try access.joinRequestStatus(creator: Self.creator, tag: "AbCdEf0123") == "pending")
            #expect(try access.pendingJoinRequestCreators() == [Self.creator])
            #expect(try access.settleJoinRequest(creator: Self.creator, tag: "AbCdEf0123", status: "joined"))
            // Settled: a later error for the same tag does not overwrite it.
            #expect(try !access.settleJoinRequest(creator: Self.creator, tag: "AbCdEf0123", status: "refused"))
            #expect(try access.joinRequestStatus(creator: Self.creator, tag: "AbCdEf0123") == "joined")
            #expect(try access.pendingJoinRequestCreators().isEmpty)
            #expect(try access.joinRequestStatus(creator: Self.creator, tag: "Other00000") == nil)
        }
    }
}

/// Own committed cards (`invite_cards`) and pending contacts found by a link key.
@Suite struct CommittedCardStoreTests {
    @Test func drawingCompactCardsDoesNotEvictAnInvitesCard() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.withGroupState { access in try access.saveInviteCard([1, 2, 3], commitment: "invite-card") }
        // A user draws the QR code many times (each a new card, a new commitment).
        for index in 0..<100 {
            try store.withGroupState { access in try access.saveInviteCard([UInt8(index)], commitment: "qr-\(index)") }
        }
        #expect(try store.readGroupState { try $0.inviteCard(commitment: "invite-card") } == [1, 2, 3])
        // Still bounded.
        for index in 0..<GroupStoreAccess.maxInviteCards {
            try store.withGroupState { access in try access.saveInviteCard([0], commitment: "more-\(index)") }
        }
        #expect(try store.readGroupState { try $0.inviteCard(commitment: "invite-card") } == nil)
    }
}
