import KithGroups
import KithStore

/// Exploding conversations (docs/GROUPS.md, section 6): on demand, by the committer's removal, and by this device's
/// clock — at the start of every processing pass, when the account opens, and before any read path shows a group or
/// its messages, so a conversation past its explosion time is never shown, whether or not a sync ran since.
extension Account {
    /// Explodes one group here; the committer first removes the others (one commit in its feed). Returns false when
    /// the group had already ended.
    @discardableResult
    func explodeBlocking(_ id: GroupID, removingOthers: Bool) throws(KithError) -> Bool {
        if removingOthers {
            let (_, membership) = try withGroupStore { access throws(KithError) in try self.activeMembership(id, in: access) }
            guard membership.isCommitter else {
                throw .group(.committerOnly(committer: (try? membership.policy.committer) ?? membership.ownFeed))
            }
            // First the explosion time (now) into the shared metadata, so members explode whatever their clocks say;
            // then their removal.
            let now = clock()
            if membership.metadata != nil, (membership.explodeAt ?? .max) > now {
                try commitMetadataChange(id) { current throws(ConversationMetadataError) in try current.settingExpiry(now) }
            }
            let others = membership.memberFeeds.subtracting([feedID])
            if !others.isEmpty {
                try commitToGroup(id) { membership, _ throws(KithError) in
                    do throws(GroupError) { return try membership.commit(removing: others.sorted()) } catch { throw .group(error) }
                }
            }
        }
        return try explodeHere(id)
    }

    /// The local part of an explosion: state, keys, member list and decrypted content go in one transaction, then
    /// the write-ahead log is folded into the database and truncated so the cleared pages leave no copy behind
    /// (best effort: a reader holding an old snapshot keeps the log until the next checkpoint). Nothing when the
    /// group already ended (a concurrent pass exploded it first).
    /// Returns false when there was nothing to explode.
    private func explodeHere(_ id: GroupID) throws(KithError) -> Bool {
        let exploded = try withGroupStore { access throws(KithError) -> Bool in
            guard let record = try self.groupStoreCall(access.group(id.string, loadingState: false)), record.status == .active else {
                return false
            }
            try self.endGroup(id, record: record, status: .exploded, access)
            return true
        }
        if exploded { try? store.truncateWriteAheadLog() }
        return exploded
    }

    /// Explodes every active group whose explosion time has passed by this device's clock (run by every processing
    /// pass, so a device that was off at that moment explodes on its next start). The committer removes the others
    /// first, so online members learn at once; when that commit cannot be made, the group still explodes here (the
    /// others explode by their own clocks).
    func explodeDueGroupsBlocking(report: inout GroupProcessReport) throws(KithError) {
        let now = clock()
        let due = try readGroupStore { access in try access.groupsDue(toExplodeAt: now) }
        for record in due {
            guard let id = try? GroupID(record.groupID) else { continue }
            let exploded: Bool
            if record.committer == feedID.string {
                // Its state may be damaged or its commit refused: the content goes here all the same.
                do throws(KithError) { exploded = try explodeBlocking(id, removingOthers: true) } catch { exploded = try explodeHere(id) }
            } else {
                exploded = try explodeHere(id)
            }
            if exploded { report.ended.append(id) }
        }
    }

    /// Explodes the groups that are due: when the account opens, and before a read path shows groups or messages. The
    /// same routine as a processing pass, so a due group's content is deleted, not just hidden (docs/GROUPS.md,
    /// section 6).
    func explodeDueGroups() throws(KithError) {
        var report = GroupProcessReport()
        try explodeDueGroupsBlocking(report: &report)
    }
}

extension Account.Groups {
    /// Explodes a conversation now (committer only): every other member is removed in one commit, then this device
    /// deletes the group's state, keys and decrypted messages; envelopes stay (chain integrity) with their content
    /// cleared, and nothing more is read or sent. Members explode when they process the removal, or by their own
    /// clock when the group's explosion time passes (docs/GROUPS.md, section 6).
    @discardableResult
    public func explode(_ id: GroupID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.explodeBlocking(id, removingOthers: true)
            return try account.groupBlocking(id)
        }
    }
}
