/// What a ``SyncSession`` needs for the blob phase (docs/sync.md, section 9a): which blobs this
/// device lacks, the blobs it holds, and a place to store verified ones. Blobs are opaque
/// (already encrypted by their author) and keyed by the SHA-256 of their bytes.
public protocol SyncBlobSource: Sendable {
    /// Blobs referenced by content held here but missing, to ask `peer` for (most wanted first).
    func wantedBlobs(from peer: SyncPeer) async -> [SyncBlobID]

    /// The blob with this hash if held here and `peer` may have it; nil otherwise.
    func blob(_ id: SyncBlobID, for peer: SyncPeer) async -> [UInt8]?

    /// Stores a complete blob whose hash was verified; returns false when the store refused it.
    func storeBlob(_ blob: [UInt8], id: SyncBlobID, from peer: SyncPeer) async -> Bool
}
