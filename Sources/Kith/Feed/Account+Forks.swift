import KithIdentity
import KithStore

/// Forks this account recorded: a feed whose copies disagree (docs/CONTINUITY.md, "The own feed does not fork
/// silently"). A fork is never resolved silently: the entry seen first is kept, the other is evidence, and the user
/// sees both ids until they acknowledge the fork after checking with the feed's owner (for example: "I restored an
/// old backup while my old phone still posted").
extension Account.Feed {
    /// Recorded forks, oldest first; open ones only unless `includeAcknowledged`.
    public func forks(includeAcknowledged: Bool = false) async throws(KithError) -> [ForkRecord] {
        try await BlockingWork.run { () throws(KithError) -> [ForkRecord] in
            do throws(StoreError) { return try account.store.forkRecords(includeAcknowledged: includeAcknowledged) } catch {
                throw .store(error)
            }
        }
    }

    /// Acknowledges every open fork of `feed` (the evidence is kept, marked with the time); returns how many were open.
    @discardableResult
    public func acknowledgeForks(of feed: FeedID) async throws(KithError) -> Int {
        try await BlockingWork.run { () throws(KithError) -> Int in
            do throws(StoreError) { return try account.store.acknowledgeForks(of: feed, now: account.clock()) } catch {
                throw .store(error)
            }
        }
    }
}
