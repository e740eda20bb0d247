import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithStore

/// Re-establishment after a restore (docs/CONTINUITY.md section 8): what a backup never carries is rebuilt
/// automatically once the restored-head guard is lifted. Each contact gets one fresh prekey batch that also says the
/// inner-circle pool with it is dead (`prekey_batch` with `pool_reset`); for each group the backup listed, its members
/// that are contacts get a readmission request (`mls_key_package` with `readmit`), which the committer honours with one
/// commit. Every task is recorded in `reestablish_tasks` in the transaction of the message that does it, so it
/// happens once and a pass cut short resumes where it stopped.
extension Account {
    /// Prekeys in the batch sent to each contact after a restore (one message).
    static let reestablishPrekeyCount = min(defaultPrekeyBatch, FeedLimits.maxPrekeysPerMessage)

    /// A member readmits the same requester to the same group at most once per this many seconds, whatever it is
    /// sent: a replayed or repeated request cannot make the group churn epochs.
    public static let readmissionInterval: Int64 = 86_400

    /// Records what a restore must re-establish: every contact, every group of the backup (with its members).
    func planReestablishmentBlocking(groups: [(groupID: String, members: [String], committer: String?)]) throws(KithError) {
        do throws(StoreError) {
            let contacts = try store.contacts()
            var tasks = contacts.map { ReestablishTask(kind: .prekeys, target: $0.feedID.string, members: [], state: .pending) }
            tasks += groups.map {
                ReestablishTask(kind: .readmission, target: $0.groupID, members: $0.members, state: .pending, committer: $0.committer)
            }
            try store.planReestablishment(tasks, now: clock())
        } catch {
            throw .store(error)
        }
    }

    /// One pass: lifts the guard when the head was learned, then sends what is due. Failures for one contact or group
    /// leave its task pending for the next pass.
    @discardableResult
    func reestablishIfDueBlocking() throws(KithError) -> ReestablishStatus {
        var tasks: [ReestablishTask]
        do throws(StoreError) { tasks = try store.reestablishTasks() } catch { throw .store(error) }
        guard !tasks.isEmpty else { return try reestablishStatusBlocking(tasks) }
        if isAwaitingHeadAfterRestore {
            do throws(KithError) {
                try checkRestoredHead(appending: "prekey_batch")
            } catch .continuity(.restoredHeadUnknown), .continuity(.recoveredHeadUnknown) {
                return try reestablishStatusBlocking(tasks)
            }
        }
        for task in tasks where task.state == .pending {
            switch task.kind {
            case .prekeys: try? sendRestorePrekeysBlocking(to: task.target)
            case .readmission: try? requestReadmissionBlocking(task)
            }
        }
        do throws(StoreError) { tasks = try store.reestablishTasks() } catch { throw .store(error) }
        for task in tasks where task.kind == .readmission && task.state == .requested && (try? isActiveMember(of: task.target)) == true {
            do throws(StoreError) { try store.setReestablishTask(.readmission, target: task.target, state: .done, now: clock()) } catch {
                throw .store(error)
            }
        }
        do throws(StoreError) { tasks = try store.reestablishTasks() } catch { throw .store(error) }
        return try reestablishStatusBlocking(tasks)
    }

    /// One fresh batch with `pool_reset`, recorded as done in the message's transaction.
    private func sendRestorePrekeysBlocking(to target: String) throws(KithError) {
        let contact: FeedID
        do throws(IdentityError) { contact = try FeedID(target) } catch { throw .identity(error) }
        let record = try contactRecordBlocking(contact)
        guard record.keyIsVerified else { return }
        let batch = try issuePrekeysBlocking(for: contact, count: Self.reestablishPrekeyCount)
        let now = clock()
        _ = try sendDirectBlocking(.prekeyBatch(PrekeyBatch(batchBytes: batch.encoded, poolReset: true)), to: contact) { access throws(KithError) in
            try self.groupStoreCall(access.setReestablishTask(.prekeys, target: target, state: .done, now: now))
        }
    }

    /// A readmission request to each member of the group that is a verified contact, each with a KeyPackage made for
    /// that member (only its Welcome is accepted). When this identity was the group's committer, the request to the
    /// first of them (in feed id order) carries a warrant naming that member the one proxy allowed to readmit it:
    /// exactly one, so two members can never commit the same epoch.
    private func requestReadmissionBlocking(_ task: ReestablishTask) throws(KithError) {
        let now = clock()
        var proxyNamed = task.committer != feedID.string
        for member in task.members where member != feedID.string {
            guard let memberID = try? FeedID(member), let record = try? contactRecordBlocking(memberID), record.keyIsVerified else { continue }
            try sendReadmissionRequestBlocking(task, to: memberID, namingProxy: !proxyNamed, now: now)
            proxyNamed = true
        }
    }

    /// One readmission request for `task`'s group to `member`, with a KeyPackage made for it; with `namingProxy`, a
    /// warrant naming `member` the one proxy allowed to readmit this identity as the committer. The task is marked
    /// requested in the message's transaction.
    private func sendReadmissionRequestBlocking(_ task: ReestablishTask, to member: FeedID, namingProxy: Bool, now: Int64) throws(KithError) {
        let made = try generateKeyPackage()
        let warrant = namingProxy
            ? try committerReadmission(group: task.target, proxy: member, keyPackageReference: made.reference, now: now).encoded : nil
        let offer = KeyPackageOffer(keyPackageBytes: made.bytes, readmitGroup: task.target, committerReadmission: warrant)
        _ = try sendDirectBlocking(.keyPackageOffer(offer), to: member) { access throws(KithError) in
            try self.groupStoreCall(access.saveOwnKeyPackage(
                reference: made.reference, recipient: member.string, keyPackage: made.bytes, secrets: made.secrets))
            try self.groupStoreCall(access.setReestablishTask(.readmission, target: task.target, state: .requested, now: now))
        }
    }

    /// Asks `member` alone to readmit this identity to `group` (`kith backup readmit GROUP --via CONTACT`): when the
    /// member first asked never answers (it left the group, or lost its device). For a group this identity was the
    /// committer of, the request names `member` the proxy with a newer warrant (docs/CONTINUITY.md section 8).
    func askReadmissionBlocking(_ group: GroupID, via member: FeedID) throws(KithError) {
        let tasks: [ReestablishTask]
        do throws(StoreError) { tasks = try store.reestablishTasks() } catch { throw .store(error) }
        guard let task = tasks.first(where: { $0.kind == .readmission && $0.target == group.string }) else {
            throw .input(.invalid("no readmission is pending for group \(group.string): only a home restored from a backup asks to be readmitted"))
        }
        guard try !isActiveMember(of: group.string) else { throw .input(.invalid("this identity is a member of group \(group.string) again")) }
        guard member != feedID else { throw .input(.invalid("ask another member of the group")) }
        let record = try contactRecordBlocking(member)
        guard record.keyIsVerified else {
            throw .input(.invalid("\(record.localName ?? record.displayName ?? member.string)'s keys are not verified: nothing is sent to unverified keys"))
        }
        try sendReadmissionRequestBlocking(task, to: member, namingProxy: task.committer == feedID.string, now: clock())
    }

    /// A warrant, signed with the original identity key (the one this identity's group leaves carry), that lets `proxy`
    /// readmit this identity as the committer of `group` with the KeyPackage of `keyPackageReference` (base64url).
    func committerReadmission(group: String, proxy: FeedID, keyPackageReference: String, now: Int64) throws(KithError) -> CommitterReadmission {
        let groupID: GroupID
        do throws(GroupError) { groupID = try GroupID(group) } catch { throw .group(error) }
        let reference: [UInt8]
        do { reference = try Base64URL.decode(keyPackageReference) } catch { throw .input(.invalid("a KeyPackage reference is not base64url")) }
        let original: KeyGeneration
        do throws(IdentityError) { original = try KeyGeneration(seed: deviceSeed) } catch { throw .identity(error) }
        do throws(GroupError) {
            return try CommitterReadmission.sign(
                groupID: groupID, committer: feedID, proxy: proxy, keyPackageReference: reference, issuedAt: UInt64(max(0, now)),
                identityKey: original.signingKey)
        } catch {
            throw .group(error)
        }
    }

    private func isActiveMember(of groupID: String) throws(KithError) -> Bool {
        try readGroupStore { access in try access.group(groupID, loadingState: false)?.status == .active }
    }

    func reestablishStatusBlocking(_ tasks: [ReestablishTask]) throws(KithError) -> ReestablishStatus {
        let prekeys = tasks.filter { $0.kind == .prekeys }
        let groups = tasks.filter { $0.kind == .readmission }
        var waiting: [String] = []
        for group in groups where group.state != .done {
            if try !isActiveMember(of: group.target) { waiting.append(group.target) }
        }
        return ReestablishStatus(
            waitingForHead: isAwaitingHeadAfterRestore, prekeysSent: prekeys.filter { $0.state == .done }.count, prekeysTotal: prekeys.count,
            groupsReadmitted: groups.count - waiting.count, groupsRequested: groups.filter { $0.state != .pending }.count, groupsTotal: groups.count,
            groupsWaiting: waiting)
    }
}

extension Account {
    /// Re-establishes what a restore did not carry, as far as it can now (docs/CONTINUITY.md section 8): nothing while
    /// the restored-head guard stands; then one fresh prekey batch (with `pool_reset`) to each contact not sent one
    /// yet, and readmission requests for each group not asked yet. Runs by itself after every import and sync and
    /// after a `key_rotation`; calling it again sends nothing twice. An account that was not restored has nothing to
    /// do.
    @discardableResult
    public func reestablish() async throws(KithError) -> ReestablishStatus {
        try await BlockingWork.run { () throws(KithError) in try self.reestablishIfDueBlocking() }
    }

    /// Asks one member to readmit this identity to `group`, after a restore, when the member asked first never
    /// answers (it left the group or lost its device). If this identity was the group's committer, the request names
    /// `member` the proxy allowed to readmit it, with a warrant newer than the first (docs/CONTINUITY.md section 8):
    /// only one of the two proxies' commits can count, but if both commit the same epoch the group splits, so ask a
    /// second member only when the first is really gone.
    ///
    /// - Parameters:
    ///   - group: a group the restored backup listed, not readmitted yet.
    ///   - member: a verified contact who is a member of the group.
    public func askReadmission(to group: GroupID, via member: FeedID) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in try self.askReadmissionBlocking(group, via: member) }
    }

    /// Where re-establishment stands, without sending anything.
    public func reestablishStatus() async throws(KithError) -> ReestablishStatus {
        try await BlockingWork.run { () throws(KithError) in
            let tasks: [ReestablishTask]
            do throws(StoreError) { tasks = try self.store.reestablishTasks() } catch { throw .store(error) }
            return try self.reestablishStatusBlocking(tasks)
        }
    }
}
