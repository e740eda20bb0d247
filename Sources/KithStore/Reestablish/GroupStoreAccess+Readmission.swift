import Foundation
import GRDB

/// A member's side of readmission after a restore (docs/CONTINUITY.md section 8).
extension GroupStoreAccess {
    /// Settled requests kept per requester; older refused ones are dropped, so a flood of requests stays bounded.
    public static let maxSettledReadmissionRequestsPerRequester = 32

    /// The requests not settled yet, oldest first.
    public func pendingReadmissionRequests() throws(StoreError) -> [ReadmissionRequest] {
        try StoreError.catching {
            try Row.fetchAll(
                db, cached: "SELECT * FROM readmission_requests WHERE state = 'pending' ORDER BY received_at, rowid"
            ).map(Self.readmissionRequest)
        }
    }

    /// Every request received, oldest first.
    public func readmissionRequests() throws(StoreError) -> [ReadmissionRequest] {
        try StoreError.catching {
            try Row.fetchAll(db, cached: "SELECT * FROM readmission_requests ORDER BY received_at, rowid").map(Self.readmissionRequest)
        }
    }

    /// When `requester` was last readmitted to `groupID` (`settled_at`, the account's clock in seconds), nil if never.
    public func lastReadmission(of requester: String, to groupID: String) throws(StoreError) -> Int64? {
        try StoreError.catching {
            try Int64.fetchOne(
                db, cached: "SELECT MAX(settled_at) FROM readmission_requests WHERE group_id = ? AND requester_feed_id = ? AND state = 'honoured'",
                arguments: [groupID, requester]
            )
        }
    }

    /// Settles a request (in the transaction of the commit that honours it, or alone when refused).
    public func settleReadmissionRequest(
        _ keyPackageReference: String, state: ReadmissionRequest.State, reason: String? = nil, at now: Int64
    ) throws(StoreError) {
        try StoreError.catching {
            guard let requester = try String.fetchOne(
                db, cached: "SELECT requester_feed_id FROM readmission_requests WHERE key_package_ref = ?", arguments: [keyPackageReference]
            ) else { return }
            try db.execute(
                cached: "UPDATE readmission_requests SET state = ?, reason = ?, settled_at = ? WHERE key_package_ref = ?",
                arguments: [state.rawValue, reason, now, keyPackageReference]
            )
            try db.execute(
                cached: """
                    DELETE FROM readmission_requests WHERE state = 'refused' AND requester_feed_id = ?1 AND key_package_ref NOT IN (
                        SELECT key_package_ref FROM readmission_requests WHERE requester_feed_id = ?1 AND state != 'pending'
                        ORDER BY settled_at DESC, rowid DESC LIMIT ?2)
                    """,
                arguments: [requester, Self.maxSettledReadmissionRequestsPerRequester]
            )
        }
    }

    /// Takes (returns and deletes) the KeyPackage of `peer` with this reference, nil when it is gone.
    public func takePeerKeyPackage(reference: String, of peer: String) throws(StoreError) -> [UInt8]? {
        try StoreError.catching {
            guard let bytes = try Data.fetchOne(
                db, cached: "SELECT key_package FROM mls_peer_key_packages WHERE ref = ? AND peer_feed_id = ?", arguments: [reference, peer]
            ) else { return nil }
            try db.execute(cached: "DELETE FROM mls_peer_key_packages WHERE ref = ?", arguments: [reference])
            return Array(bytes)
        }
    }

    static func readmissionRequest(_ row: Row) -> ReadmissionRequest {
        ReadmissionRequest(
            keyPackageReference: row["key_package_ref"], groupID: row["group_id"], requester: row["requester_feed_id"],
            state: ReadmissionRequest.State(rawValue: row["state"]) ?? .refused, reason: row["reason"],
            committerReadmission: (row["committer_readmission"] as Data?).map { Array($0) }
        )
    }
}

extension DirectSessionAccess {
    /// Records a readmission request that came with a valid KeyPackage of `requester` (in the direct message's
    /// transaction); a request whose KeyPackage was seen before is ignored. `committerReadmission` is the requester's
    /// warrant naming this identity as proxy (when the requester was the group's committer).
    public func recordReadmissionRequest(keyPackageReference: String, groupID: String, requester: String, committerReadmission: [UInt8]? = nil) throws {
        try db.execute(
            cached: """
                INSERT OR IGNORE INTO readmission_requests(key_package_ref, group_id, requester_feed_id, state, received_at, committer_readmission)
                VALUES (?, ?, ?, 'pending', ?, ?)
                """,
            arguments: [keyPackageReference, groupID, requester, now, committerReadmission.map { Data($0) }]
        )
    }

    /// Drops the inner-circle pools shared with `peer` and any exchange planned with it (the peer said its side is
    /// dead: `prekey_batch` with `pool_reset`). Returns whether there were pools.
    @discardableResult
    public func dropOneTimePools(peer: String) throws -> Bool {
        try OneTimePoolAccess(db: db, sealer: sealer, now: now).forget(peer: peer)
    }

    /// Drops the KeyPackages exchanged with `peer` before it was restored (the same `prekey_batch` with `pool_reset`
    /// says its state is gone): the ones it handed this identity (their private halves died with the old device; a
    /// Welcome for one could never be opened), except those its pending readmission requests name; the private halves
    /// of the ones made for it (it no longer holds them); and when it was last offered one, so a fresh offer goes out
    /// with the next pass.
    public func dropKeyPackagesOfRestoredPeer(_ peer: String) throws {
        try GroupStoreAccess.withdrawKeyPackages(of: peer, in: db, keepingPendingReadmissions: true)
    }
}
