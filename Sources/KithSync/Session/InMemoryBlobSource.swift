/// An in-memory ``SyncBlobSource`` for tests and benchmarks: blobs keyed by hash, plus the list of
/// blobs this device wants (what its content references but it lacks).
public actor InMemoryBlobSource: SyncBlobSource {
    private var blobs: [SyncBlobID: [UInt8]] = [:]
    private var wanted: [SyncBlobID] = []
    /// Blobs stored by ``storeBlob(_:id:from:)``, in arrival order.
    public private(set) var storedLog: [SyncBlobID] = []

    /// Creates an empty blob store.
    public init() {}

    /// Adds a blob; returns its id.
    @discardableResult
    public func put(_ blob: [UInt8]) -> SyncBlobID {
        let id = SyncBlobID(blob: blob)
        blobs[id] = blob
        return id
    }

    /// Marks blobs as wanted (referenced here but missing).
    public func want(_ ids: [SyncBlobID]) { wanted += ids }

    /// The blob with this id, if held.
    public func held(_ id: SyncBlobID) -> [UInt8]? { blobs[id] }

    /// Ids of every held blob.
    public var heldIDs: Set<SyncBlobID> { Set(blobs.keys) }

    public func wantedBlobs(from peer: SyncPeer) -> [SyncBlobID] {
        wanted.filter { blobs[$0] == nil }
    }

    public func blob(_ id: SyncBlobID, for peer: SyncPeer) -> [UInt8]? { blobs[id] }

    public func storeBlob(_ blob: [UInt8], id: SyncBlobID, from peer: SyncPeer) -> Bool {
        guard SyncBlobID(blob: blob) == id else { return false }
        if blobs[id] == nil { storedLog.append(id) }
        blobs[id] = blob
        return true
    }
}
