import GRDB
import KithFeed
import KithIdentity

extension FeedStore {
    /// Sequences of `feedID` held ahead of a gap (pending, not yet linked) whose entry carries a
    /// verified signature: v1 envelopes and self stubs. Ascending, without duplicates.
    ///
    /// A sync peer is told these (docs/sync.md, held ranges) so that an interrupted newest-first
    /// transfer resumes without re-sending them. Later-version envelopes held for relay are left
    /// out: their position is not authenticated until a signed successor anchors them, so a
    /// peer's copy must still be able to fill the slot.
    public func heldSequencesAhead(of feedID: FeedID) throws(StoreError) -> [UInt32] {
        try read { db in
            try Int64.fetchAll(
                db,
                cached: "SELECT DISTINCT sequence FROM pending_entries WHERE feed_id = ? AND kind IN ('envelope', 'self') ORDER BY sequence",
                arguments: [feedID.string]
            ).compactMap { UInt32(exactly: $0) }
        }
    }

    /// Content hashes (base64url) of blobs referenced by readable content held here (post
    /// attachments, profile avatars, group trees sent apart) but not stored yet: what the blob phase of a sync asks for.
    /// Sorted for a stable order.
    public func missingReferencedBlobs() throws(StoreError) -> [String] {
        let referenced = try referencedBlobHashes()
        guard !referenced.isEmpty else { return [] }
        let held = Set(try blobHashes())
        return referenced.subtracting(held).sorted()
    }
}
