import Foundation
import GRDB

/// How many KeyPackages this identity and one contact hold of each other (``GroupStoreAccess/keyPackageCounts()``).
public struct KeyPackageCounts: Sendable, Equatable {
    /// This identity's KeyPackages made by automatic offers to the contact and not used yet (their private halves are
    /// kept here).
    public var automaticOutstanding: Int
    /// This identity's KeyPackages shared or handed over to the contact on request and not used yet.
    public var sharedOutstanding: Int
    /// The contact's KeyPackages this identity holds (each adds the contact to one group).
    public var held: Int

    /// Counts.
    public init(automaticOutstanding: Int = 0, sharedOutstanding: Int = 0, held: Int = 0) {
        self.automaticOutstanding = automaticOutstanding
        self.sharedOutstanding = sharedOutstanding
        self.held = held
    }
}

/// Automatic KeyPackage offers (docs/GROUPS.md, "Automatic offers"): the switch, the bound per contact and the
/// refresh interval.
extension GroupStoreAccess {
    /// Most KeyPackages made by automatic offers that may wait unused for one contact (their private halves kept here).
    public static let maxAutomaticKeyPackagesPerContact = 1

    /// Shortest time (seconds, account clock) between two automatic offers to one contact: a contact that consumes
    /// each offer at once (adding this identity to group after group) gets at most one new one per interval.
    public static let automaticKeyOfferInterval: Int64 = 600

    /// Whether automatic offers are on (they are until the user turns them off).
    public func automaticKeyOffersEnabled() throws(StoreError) -> Bool {
        try StoreError.catching {
            try Bool.fetchOne(db, cached: "SELECT automatic FROM mls_key_offer_settings WHERE id = 1") ?? true
        }
    }

    /// Turns automatic offers on or off. Off withdraws the outstanding automatic KeyPackages (their private halves are
    /// deleted: a Welcome using one is refused) and forgets when each contact was last offered one, so turning them on
    /// again offers at the next opportunity. Returns how many KeyPackages were withdrawn.
    @discardableResult
    public func setAutomaticKeyOffers(_ enabled: Bool) throws(StoreError) -> Int {
        try StoreError.catching {
            try db.execute(
                cached: "INSERT INTO mls_key_offer_settings(id, automatic) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET automatic = excluded.automatic",
                arguments: [enabled]
            )
            guard !enabled else { return 0 }
            try db.execute(cached: "DELETE FROM mls_own_key_packages WHERE automatic = 1")
            let withdrawn = db.changesCount
            try db.execute(cached: "DELETE FROM mls_auto_key_offers")
            return withdrawn
        }
    }

    /// Whether an automatic offer to `recipient` is due at `now` (seconds): offers are on, fewer than
    /// ``maxAutomaticKeyPackagesPerContact`` automatic KeyPackages for `recipient` wait unused, and the last automatic
    /// offer to `recipient` is at least ``automaticKeyOfferInterval`` old (or none was made, or the clock went back).
    public func automaticKeyOfferDue(to recipient: String, now: Int64) throws(StoreError) -> Bool {
        guard try automaticKeyOffersEnabled() else { return false }
        return try StoreError.catching {
            let outstanding = try Int.fetchOne(
                db, cached: "SELECT COUNT(*) FROM mls_own_key_packages WHERE recipient_feed_id = ? AND automatic = 1", arguments: [recipient]
            ) ?? 0
            guard outstanding < Self.maxAutomaticKeyPackagesPerContact else { return false }
            guard let last = try Int64.fetchOne(
                db, cached: "SELECT offered_at FROM mls_auto_key_offers WHERE recipient_feed_id = ?", arguments: [recipient]
            ) else { return true }
            return now < last || now - last >= Self.automaticKeyOfferInterval
        }
    }

    /// Records that an automatic offer to `recipient` was made at `now` (seconds).
    public func recordAutomaticKeyOffer(to recipient: String, at now: Int64) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: """
                    INSERT INTO mls_auto_key_offers(recipient_feed_id, offered_at) VALUES (?, ?)
                    ON CONFLICT(recipient_feed_id) DO UPDATE SET offered_at = excluded.offered_at
                    """,
                arguments: [recipient, now]
            )
        }
    }

    /// Per feed, the KeyPackages this identity and that feed hold of each other; feeds with none are left out.
    public func keyPackageCounts() throws(StoreError) -> [String: KeyPackageCounts] {
        try StoreError.catching {
            var counts: [String: KeyPackageCounts] = [:]
            for row in try Row.fetchAll(
                db, cached: "SELECT recipient_feed_id, automatic, COUNT(*) AS n FROM mls_own_key_packages GROUP BY recipient_feed_id, automatic"
            ) {
                let feed: String = row["recipient_feed_id"]
                let count: Int = row["n"]
                if row["automatic"] as Bool {
                    counts[feed, default: KeyPackageCounts()].automaticOutstanding += count
                } else {
                    counts[feed, default: KeyPackageCounts()].sharedOutstanding += count
                }
            }
            for row in try Row.fetchAll(db, cached: "SELECT peer_feed_id, COUNT(*) AS n FROM mls_peer_key_packages GROUP BY peer_feed_id") {
                counts[row["peer_feed_id"], default: KeyPackageCounts()].held = row["n"]
            }
            return counts
        }
    }

    /// Welcomes refused for good (a Welcome naming a withdrawn or used KeyPackage among them), oldest first: (message
    /// id, the reason recorded).
    public func refusedWelcomes() throws(StoreError) -> [(messageID: String, reason: String)] {
        try StoreError.catching {
            try Row.fetchAll(
                db, cached: "SELECT message_id, outcome FROM mls_processed WHERE group_id = '' AND outcome LIKE 'refused:%' ORDER BY processed_at, message_id"
            ).map { ($0["message_id"], $0["outcome"]) }
        }
    }

    /// Withdraws every KeyPackage between this identity and `contact` (the contact is being removed, restored, or its
    /// direct channel forgotten): the private halves of those made for `contact` (automatic or shared), the KeyPackages
    /// `contact` handed over, and when `contact` was last offered one. Runs in the caller's transaction.
    ///
    /// - Parameter keepingPendingReadmissions: keep the KeyPackages `contact`'s pending readmission requests name
    ///   (a restored contact's own requests, which arrive with its restore).
    static func withdrawKeyPackages(of contact: String, in db: Database, keepingPendingReadmissions: Bool = false) throws {
        try db.execute(cached: "DELETE FROM mls_own_key_packages WHERE recipient_feed_id = ?", arguments: [contact])
        try db.execute(
            cached: """
                DELETE FROM mls_peer_key_packages WHERE peer_feed_id = ?1 AND NOT (?2 AND ref IN (
                    SELECT key_package_ref FROM readmission_requests WHERE requester_feed_id = ?1 AND state = 'pending'))
                """,
            arguments: [contact, keepingPendingReadmissions])
        try db.execute(cached: "DELETE FROM mls_auto_key_offers WHERE recipient_feed_id = ?", arguments: [contact])
    }
}
