/// Optional parts of a ``SyncSession``: the blob phase and a progress observer.
public struct SyncSessionOptions: Sendable {
    /// Where wanted blobs come from and go to; nil: this side asks for none and serves none
    /// (it still takes part in the phase when ``SyncCapabilities/blobs`` was negotiated).
    public var blobSource: (any SyncBlobSource)?
    /// Largest blob this side asks for (sent in each want) and serves.
    public var maximumBlobLength: Int
    /// Called for every ``SyncSessionEvent``, from the session's tasks (keep it quick).
    public var observer: (@Sendable (SyncSessionEvent) -> Void)?

    /// Creates options; by default no blobs and no observer.
    public init(
        blobSource: (any SyncBlobSource)? = nil,
        maximumBlobLength: Int = SyncLimits.defaultMaximumBlobLength,
        observer: (@Sendable (SyncSessionEvent) -> Void)? = nil
    ) {
        self.blobSource = blobSource
        self.maximumBlobLength = maximumBlobLength
        self.observer = observer
    }
}
