import Crypto
import Testing

@testable import KithStore

/// `GroupStoreAccess` reports its failures as ``StoreError`` (typed throws), SQLite's included, so the facade maps
/// them without guessing.
@Suite struct GroupStoreTypedErrorTests {
    @Test func aFailedStatementIsAStoreErrorInsideTheTransaction() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        let caught: (any Error)? = try store.withGroupState { access in
            try access.consumeInvite("invite-1", group: "g", requester: "r1")
            do {
                try access.consumeInvite("invite-1", group: "g", requester: "r2")
                return nil
            } catch {
                return error
            }
        }
        // Before typed throws this was GRDB's DatabaseError, reaching the caller unconverted.
        guard case .database(let reason)? = caught as? StoreError else {
            Issue.record("expected StoreError.database, got \(String(describing: caught))")
            return
        }
        #expect(reason.contains("UNIQUE"))
        // The statement failed alone: the first consumption committed with the transaction.
        #expect(try store.readGroupState { try $0.inviteConsumer("invite-1") } == "r1")
    }
}
