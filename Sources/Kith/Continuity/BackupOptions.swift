/// What `Account.backup(to:secret:options:progress:)` puts in a backup.
public struct BackupOptions: Sendable, Equatable {
    /// Keep only the newest `window` messages of each followed feed (the own feed is always whole); nil keeps all.
    public var window: Int?
    /// Include stored blobs (attachments); off by default, they can be large.
    public var includeBlobs: Bool

    /// Creates options.
    public init(window: Int? = nil, includeBlobs: Bool = false) {
        self.window = window
        self.includeBlobs = includeBlobs
    }
}
