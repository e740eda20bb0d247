import KithFeed

/// Errors of the SQLite store.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The database could not be opened or migrated.
    case openFailed(path: String, reason: String)
    /// A database operation failed.
    case database(String)
    /// The feed is not followed by this store (unknown key).
    case unknownFeed(String)
    /// A sealed value could not be opened with this identity's storage key.
    case sealedValueUnreadable(String)
    /// A self message of the local feed has no signed stub to replicate in its place.
    case missingSelfStub(String)
    /// A feed rule was broken.
    case feed(FeedError)

    public var description: String {
        switch self {
        case .openFailed(let path, let reason): "cannot open the database \(path): \(reason)"
        case .database(let reason): "database error: \(reason)"
        case .unknownFeed(let feed): "feed \(feed) is not followed here; add the contact (or pass its key) first"
        case .sealedValueUnreadable(let what): "stored \(what) cannot be opened with this identity's storage key"
        case .missingSelfStub(let id): "self message \(id) has no signed stub yet; export it through the account"
        case .feed(let error): error.description
        }
    }
}
