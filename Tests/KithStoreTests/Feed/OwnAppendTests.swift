import KithFeed
import KithIdentity
import Testing
@testable import KithStore

/// `FeedStore.appendOwn` keeps the entry builder's error typed and writes nothing when it fails.
@Suite struct OwnAppendTests {
    enum BuildFailure: Error, Equatable { case refused }

    @Test func aFailingBuilderWritesNothingAndKeepsItsErrorType() throws {
        let store = try StoreFixtures.store()
        try store.follow(identityKey: StoreFixtures.alice.publicKeys.identityKey, isLocal: true)
        var sequenceOffered: UInt32?
        #expect {
            try store.appendOwn(feed: StoreFixtures.alice.feedID) { (slot: OwnAppendSlot) throws(BuildFailure) -> OwnAppendEntry in
                sequenceOffered = slot.sequence
                throw .refused
            }
        } throws: { error in
            guard case .entry(.refused)? = error as? OwnAppendError<BuildFailure> else { return false }
            return true
        }
        #expect(sequenceOffered == 0)
        #expect(try store.head(of: StoreFixtures.alice.feedID) == nil)
    }
}
