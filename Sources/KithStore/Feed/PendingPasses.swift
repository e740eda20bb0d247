import GRDB
import KithFeed
import KithIdentity

/// Which of the passes that run after every import have anything to do, read in one snapshot
/// (``FeedStore/pendingPasses(local:now:)``).
///
/// Each flag is the exact condition under which its pass finds work: a pass whose flag is false
/// would open its transaction, find nothing and change nothing, so the caller skips it. Without
/// this probe a one-entry import ran about ten transactions, most of them empty.
public struct PendingPasses: Sendable, Equatable {
    /// Linked `direct:{local}` messages still opaque and not failed (the direct pass).
    public var directMessages = false
    /// Linked `otk:{local}` messages still opaque and not failed (the one-time pass).
    public var oneTimeMessages = false
    /// Active groups whose explosion time has come.
    public var groupsDueToExplode = false
    /// Decrypted direct `group_event` messages to `local` not processed yet (Welcomes).
    public var welcomes = false
    /// Groups known here with unprocessed messages of their audience (not counting those held for a later epoch).
    public var groupInboxes = false
    /// Welcomes queued in the outbox, not yet sent.
    public var queuedWelcomes = false
    /// Decrypted direct invite join requests or join errors to `local` not processed yet.
    public var inviteMessages = false
    /// After a restore, re-establishment tasks not done; or readmission requests not settled (docs/CONTINUITY.md
    /// section 8).
    public var reestablishment = false

    /// Every pass has work (what a caller assumes without a probe).
    public static let all = PendingPasses(
        directMessages: true, oneTimeMessages: true, groupsDueToExplode: true, welcomes: true, groupInboxes: true, queuedWelcomes: true,
        inviteMessages: true, reestablishment: true
    )

    /// Creates a probe result (all false unless told).
    public init(
        directMessages: Bool = false, oneTimeMessages: Bool = false, groupsDueToExplode: Bool = false, welcomes: Bool = false,
        groupInboxes: Bool = false, queuedWelcomes: Bool = false, inviteMessages: Bool = false, reestablishment: Bool = false
    ) {
        self.directMessages = directMessages
        self.oneTimeMessages = oneTimeMessages
        self.groupsDueToExplode = groupsDueToExplode
        self.welcomes = welcomes
        self.groupInboxes = groupInboxes
        self.queuedWelcomes = queuedWelcomes
        self.inviteMessages = inviteMessages
        self.reestablishment = reestablishment
    }

    /// Whether the group pass has anything to do.
    public var anyGroupWork: Bool { groupsDueToExplode || welcomes || groupInboxes || queuedWelcomes || inviteMessages }
}

extension FeedStore {
    /// Which passes after an import have work for `local`, in one read (`now`: Unix seconds, the explosion clock).
    public func pendingPasses(local: FeedID, now: Int64) throws(StoreError) -> PendingPasses {
        try read { db in
            let direct = "direct:" + local.string
            var passes = PendingPasses()
            passes.directMessages = try hasUnopened(.direct, to: local, in: db)
            passes.oneTimeMessages = try hasUnopened(.oneTime, to: local, in: db)
            passes.groupsDueToExplode = try Bool.fetchOne(
                db, cached: "SELECT EXISTS(SELECT 1 FROM mls_groups WHERE status = 'active' AND explode_at IS NOT NULL AND explode_at <= ?)",
                arguments: [now]
            ) ?? false
            // The conditions of GroupStoreAccess.welcomes(to:), joinRequests(to:) and joinErrors(to:).
            passes.welcomes = try Bool.fetchOne(
                db,
                cached: """
                    SELECT EXISTS(SELECT 1 FROM messages WHERE audience = ? AND type = 'group_event' AND content_json IS NOT NULL
                      AND message_id NOT IN (SELECT message_id FROM mls_processed))
                    """,
                arguments: [direct]
            ) ?? false
            passes.inviteMessages = try Bool.fetchOne(
                db,
                cached: """
                    SELECT EXISTS(SELECT 1 FROM messages WHERE audience = ? AND type IN ('invite_join_request', 'invite_join_error')
                      AND content_json IS NOT NULL AND message_id NOT IN (SELECT message_id FROM mls_processed))
                    """,
                arguments: [direct]
            ) ?? false
            passes.groupInboxes = try !GroupStoreAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: CommitActions()).groupsWithInbox().isEmpty
            passes.queuedWelcomes = try Bool.fetchOne(db, cached: "SELECT EXISTS(SELECT 1 FROM mls_outbox)") ?? false
            passes.reestablishment = try Bool.fetchOne(
                db,
                cached: """
                    SELECT EXISTS(SELECT 1 FROM reestablish_tasks WHERE state != 'done')
                      OR EXISTS(SELECT 1 FROM readmission_requests WHERE state = 'pending')
                    """
            ) ?? false
            return passes
        }
    }
}
