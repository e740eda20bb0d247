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
    /// A key outside the strict Ed25519 rule was offered to the store (docs section 2).
    case invalidKey(String)
    /// A contact card claims a feed this device already relies on with an identity key that the
    /// feed's verified key_rotation chain does not give (docs/FEED-FORMAT.md 11.1). Nothing changed.
    case contactKeyConflict(feed: String, cardKey: String, chainKey: String)
    /// A switch of a feed's copy to another branch was refused (docs/CONTINUITY.md section 3). Nothing changed.
    case forkSwitchRefused(ForkSwitchRefusal)

    public var description: String {
        switch self {
        case .openFailed(let path, let reason): "cannot open the database \(path): \(reason)"
        case .database(let reason): "database error: \(reason)"
        case .unknownFeed(let feed): "feed \(feed) is not followed here; add the contact (or pass its key) first"
        case .sealedValueUnreadable(let what): "stored \(what) cannot be opened with this identity's storage key"
        case .missingSelfStub(let id): "self message \(id) has no signed stub yet; export it through the account"
        case .feed(let error): error.description
        case .invalidKey(let reason): "refused key: \(reason)"
        case .contactKeyConflict(let feed, let cardKey, let chainKey):
            "the card claims feed \(feed) with identity key \(cardKey), but that feed's verified key chain gives \(chainKey); "
                + "the card was refused and nothing changed. If they rotated their keys, sync their feed first so the rotation is verified, then add the card again"
        case .forkSwitchRefused(let refusal): refusal.description
        }
    }
}

extension StoreError {
    /// Runs `body` and reports what it throws as a store error: a ``StoreError`` as it is, anything else (SQLite's
    /// errors) as ``database(_:)`` with its description. The one place where the store's untyped calls (GRDB) get the
    /// store's typed error.
    static func catching<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database("\(error)")
        }
    }
}
