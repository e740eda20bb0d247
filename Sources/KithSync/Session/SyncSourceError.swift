/// A local store failure reported by a ``SyncFeedSource`` (the database could not be read or
/// written). A ``SyncSession`` that gets one stops at once and reports it as
/// ``SyncSessionReport/localFailure``: it never turns a local failure into `invalid`
/// acknowledgements (which would tell the peer its valid messages were bad) nor into "nothing to
/// request" or "nothing to offer".
public struct SyncSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source call that failed.
    public enum Operation: String, Hashable, Sendable {
        /// Listing the feeds to request.
        case followedFeeds = "listing the feeds to request"
        /// Reading what to offer.
        case outgoing = "reading what to offer"
        /// Storing received messages.
        case ingest = "storing received messages"
        /// Recording an acknowledgement.
        case acknowledged = "recording an acknowledgement"
    }

    /// The source call that failed.
    public var operation: Operation
    /// The underlying error, as text.
    public var reason: String
    /// True when only one feed is affected and the store is otherwise healthy (only for
    /// ``Operation/outgoing``: the feed cannot be served as stored, for example a self message
    /// held without its signed stub). The session then offers that feed empty, lists it in
    /// ``SyncSessionReport/feedsWithheld`` and goes on.
    public var feedOnly: Bool

    /// Creates an error for `operation`; `feedOnly` as in ``feedOnly``.
    public init(_ operation: Operation, reason: String, feedOnly: Bool = false) {
        self.operation = operation
        self.reason = reason
        self.feedOnly = feedOnly && operation == .outgoing
    }

    public var description: String {
        "the local store failed while \(operation.rawValue): \(reason); nothing was acknowledged for the failed step, retry the sync once the store is healthy"
    }
}
