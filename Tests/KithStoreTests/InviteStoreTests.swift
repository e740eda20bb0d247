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
