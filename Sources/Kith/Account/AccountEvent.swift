import KithFeed
import KithIdentity
import KithStore
import KithSync
import Synchronization

/// Something that happened to an account, delivered to every subscriber of
/// ``Account/events()``. Events name messages and feeds, never plaintext: read the content with
/// ``Account/Feed/timeline(feed:limit:)`` or ``Account/Direct/conversation(with:limit:)``.
public enum AccountEvent: Sendable {
    /// Messages of `feed` were stored here (written by this account, imported, or synced), oldest
    /// first; entries held ahead of a gap are included once they link into the chain.
    case messagesStored(feed: FeedID, messages: [MessageID])
    /// Direct messages addressed to this account were decrypted.
    case directMessagesOpened([MessageID])
    /// Group messages were decrypted and stored (``Account/Groups/process()``).
    case groupMessagesOpened([MessageID])
    /// A sync session made progress (see `SyncSessionEvent`).
    case syncProgress(SyncSessionEvent)
    /// A verified key rotation of a contact's (or a followed) feed was stored: their current keys
    /// changed.
    case keysRotated(FeedID)
    /// A contact was added (or their card updated).
    case contactAdded(FeedID)
    /// A contact was removed.
    case contactRemoved(FeedID)
    /// One-time messages addressed to this account were decrypted (their keys are gone).
    case oneTimeMessagesOpened([MessageID])
    /// Pools were exchanged with an inner-circle contact during a sync (active: the commit arrived).
    case circlePoolsExchanged(FeedID, active: Bool)
    /// The pool of an inner-circle contact fell below 10 %: renew it at the next meeting.
    case circlePoolLow(FeedID, remaining: Int, capacity: Int)
    /// An inner-circle contact revoked trust (told over the link): both pools were deleted here.
    case circleRevokedByPeer(FeedID)
}

/// Fans account events out to every live subscriber.
final class AccountEventHub: Sendable {
    /// Events a slow subscriber may fall behind by before the oldest are dropped.
    static let bufferSize = 256

    private let subscribers = Mutex<[Int: AsyncStream<AccountEvent>.Continuation]>([:])
    private let nextID = Mutex(0)

    /// A new subscription, removed when its stream ends or is dropped.
    func subscribe() -> AsyncStream<AccountEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AccountEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers `event` to every subscriber.
    func emit(_ event: AccountEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every subscription (the account is going away).
    func finish() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
