import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithMLS
import KithStore

/// Receiving group messages: Welcomes, then every group's inbox in epoch order (docs/GROUPS.md, "Processing").
extension Account {
    ///
    /// `passes` (from ``FeedStore/pendingPasses(local:now:)``) skips the steps that have nothing to do; the default runs
    /// every step.
    @discardableResult
    func processGroupMessagesBlocking(passes: PendingPasses = .all) throws(KithError) -> GroupProcessReport {
        var report = GroupProcessReport()
        var touched: [GroupID: GroupMembership] = [:]
        var advanced: Set<GroupID> = []
        // Groups whose member feeds changed (joined here, or a commit added or removed members): their feeds are followed.
        var membersChanged: Set<GroupID> = []
        var profiles: [GroupID: [FeedID: String?]] = [:]
        if passes.groupsDueToExplode { try explodeDueGroupsBlocking(report: &report) }
        if passes.welcomes || passes.groupInboxes {
            try withGroupStore { access throws(KithError) in
                // Only when the probe found an unprocessed Welcome: its query reads every group_event of the inbox.
                for (id, membership) in passes.welcomes ? try self.joinFromWelcomes(access, report: &report) : [] {
                    touched[id] = membership
                    advanced.insert(id)
                    membersChanged.insert(id)
                }
                for text in try self.groupStoreCall(access.groupsWithInbox()) {
                    guard let id = try? GroupID(text), let drained = try self.drainInbox(id, access, report: &report) else { continue }
                    touched[id] = drained.membership
                    if drained.advanced { advanced.insert(id) }
                    if drained.membersChanged { membersChanged.insert(id) }
                    if !drained.profiles.isEmpty { profiles[id] = drained.profiles }
                }
            }
        }
        for (id, membership) in touched where membersChanged.contains(id) { try follow(membersOf: membership) }
        var committed = false
        for (id, membership) in touched {
            // One group's follow-up failing (its commit would not fit, its state is damaged) must not stop the others,
            // nor the import that ran this pass: it is reported and tried again on the next pass.
            do throws(KithError) {
                if try followUp(id, membership, advanced: advanced.contains(id), profiles: profiles[id] ?? [:]) { committed = true }
            } catch {
                report.followUpFailures.append((id, error.description))
            }
        }
        // Follow-up commits and explosions may have queued Welcomes.
        if passes.queuedWelcomes || committed || !report.ended.isEmpty || !report.followUpFailures.isEmpty { try flushWelcomes() }
        // A commit may have set an explosion time that has passed.
        if !advanced.isEmpty { try explodeDueGroupsBlocking(report: &report) }
        if !report.opened.isEmpty { hub.emit(.groupMessagesOpened(report.opened)) }
        // Join requests and errors arrive as direct messages; a Welcome may settle a request sent.
        if passes.inviteMessages { try processInviteMessagesBlocking() }
        return report
    }

    // MARK: Welcomes

    /// Joins from every unprocessed Welcome; returns the memberships joined.
    private func joinFromWelcomes(_ access: GroupStoreAccess, report: inout GroupProcessReport) throws(KithError) -> [(GroupID, GroupMembership)] {
        var joined: [(GroupID, GroupMembership)] = []
        for welcome in try groupStoreCall(access.welcomes(to: feedID.string)) {
            let outcome: String
            do throws(GroupError) {
                if let membership = try join(welcome, access, report: &report) {
                    joined.append((membership.id, membership))
                    outcome = "joined"
                } else {
                    outcome = "already a member"
                }
            } catch .ratchetTreeMissing {
                // Its tree travels apart and has not arrived: tried again on every pass until it has.
                report.held += 1
                continue
            } catch {
                outcome = "refused: \(error.description)"
                if let id = try? MessageID(welcome.messageID) { report.refused.append((id, error.description)) }
            }
            try groupStoreCall(access.markProcessed(welcome.messageID, group: "", outcome: outcome))
        }
        return joined
    }

    /// Joins from one decrypted direct `group_event`; nil when this identity is a member already.
    private func join(
        _ welcome: (messageID: String, author: String, plaintext: [UInt8]), _ access: GroupStoreAccess, report: inout GroupProcessReport
    ) throws(GroupError) -> GroupMembership? {
        guard case .groupEvent(let event)? = try? Content.parse(welcome.plaintext, envelopeType: "group_event"),
              event.event == GroupEventKind.addMember.rawValue,
              let bytes = try? Base64URL.decode(event.mlsMessage), bytes.count <= GroupWireMessage.maxBytes,
              let message = try? MLSMessage(tlsEncoded: bytes), case .welcome(let mlsWelcome) = message.body else {
            throw .malformedMessage("a direct group_event must carry an MLS Welcome")
        }
        let id = try GroupID(event.groupID)
        let author = (try? FeedID(welcome.author)) ?? feedID
        let existing = try? access.group(id.string)
        var found: (keyPackage: KeyPackage, secrets: KeyPackageSecrets, reference: String)?
        for secrets in mlsWelcome.secrets {
            let reference = Base64URL.encode(secrets.newMember)
            if let own = try? access.ownKeyPackage(reference: reference) {
                try Self.checkWelcomeSender(author, of: own.recipient)
                found = (try GroupKeyPackage.decode(own.keyPackage), try GroupKeyPackage.decodeSecrets(own.secrets), reference)
                break
            }
        }
        guard let found else { throw .invalidKeyPackage("the Welcome names none of this identity's KeyPackages (already used?)") }
        let membership: GroupMembership
        do throws(GroupError) {
            membership = try GroupMembership.join(
                welcome: mlsWelcome, keyPackage: found.keyPackage, secrets: found.secrets, own: feedID, author: author, now: groupClock
            )
        } catch .ratchetTreeMissing {
            membership = try GroupMembership.join(
                welcome: mlsWelcome, keyPackage: found.keyPackage, secrets: found.secrets, own: feedID, author: author,
                ratchetTree: try groupTree(of: id, from: author, access), now: groupClock
            )
        }
        guard membership.id == id else { throw .malformedMessage("the Welcome is for another group than its group_event says") }
        // A Welcome for a group this identity is active in counts only when it is newer: the committer re-added it
        // (its old leaf is removed by the same commit).
        if let existing, existing.status == .active, existing.epoch >= membership.epoch { return nil }
        do throws(KithError) {
            try save(membership, name: existing?.name, explodeAt: existing?.explodeAt, in: access)
            try groupStoreCall(access.deleteOwnKeyPackage(reference: found.reference))
            // An invite join request this Welcome answers (same creator, the group's tag) is settled with it.
            if let tag = membership.metadata?.tag {
                try groupStoreCall(access.settleJoinRequest(creator: author.string, tag: tag, status: "joined"))
            }
        } catch {
            throw .damagedState(error.description)
        }
        report.joined.append(id)
        return membership
    }

    /// Joins from a Welcome that came back over an invite exchange with a creator met only through its invite
    /// (docs/INVITES.md, "Welcome gating"). Refused, with nothing stored, unless a join request to `creator` for `tag`
    /// is pending here and the Welcome's group carries exactly that invite tag: a stranger cannot add this identity
    /// to a group it did not ask to join.
    ///
    /// - Parameters:
    ///   - welcome: the TLS-encoded `MLSMessage` carrying the Welcome.
    ///   - tree: the ratchet tree when it travelled apart (empty when the Welcome carries it).
    ///   - creatorCard: the creator's full card, checked by the caller; kept as a group peer in the join's transaction.
    /// - Throws: ``KithError/group(_:)`` when the Welcome is malformed, names none of this identity's KeyPackages,
    ///   or does not match a pending request.
    func joinFromInviteExchange(
        welcome bytes: [UInt8], tree: [UInt8], creator: FeedID, tag: String, creatorCard: ContactCard? = nil
    ) throws(KithError) -> GroupID {
        let membership: GroupMembership = try withGroupStore { access throws(KithError) in
            guard try self.groupStoreCall(access.joinRequestStatus(creator: creator.string, tag: tag)) == "pending" else {
                throw .group(.malformedMessage("no pending join request to this creator for this invite: Welcome refused"))
            }
            guard bytes.count <= GroupWireMessage.maxBytes, let message = try? MLSMessage(tlsEncoded: bytes),
                  case .welcome(let mlsWelcome) = message.body else {
                throw .group(.malformedMessage("the invite exchange must answer with an MLS Welcome"))
            }
            var found: (keyPackage: KeyPackage, secrets: KeyPackageSecrets, reference: String)?
            do throws(GroupError) {
                for secrets in mlsWelcome.secrets {
                    let reference = Base64URL.encode(secrets.newMember)
                    if let own = try? access.ownKeyPackage(reference: reference) {
                        try Self.checkWelcomeSender(creator, of: own.recipient)
                        found = (try GroupKeyPackage.decode(own.keyPackage), try GroupKeyPackage.decodeSecrets(own.secrets), reference)
                        break
                    }
                }
            } catch {
                throw .group(error)
            }
            guard let found else { throw .group(.invalidKeyPackage("the Welcome names none of this identity's KeyPackages")) }
            let membership: GroupMembership
            do throws(GroupError) {
                membership = try GroupMembership.join(
                    welcome: mlsWelcome, keyPackage: found.keyPackage, secrets: found.secrets, own: self.feedID, author: creator,
                    ratchetTree: tree.isEmpty ? nil : tree, now: self.groupClock)
            } catch {
                throw .group(error)
            }
            guard let groupTag = membership.metadata?.tag, groupTag.utf8.elementsEqual(tag.utf8) else {
                throw .group(.malformedMessage("the Welcome is for a group whose invite tag is not the invite's: refused"))
            }
            if let existing = try? access.group(membership.id.string), existing.status == .active, existing.epoch >= membership.epoch {
                throw .group(.malformedMessage("already a member of that group"))
            }
            try self.save(membership, name: nil, explodeAt: nil, in: access)
            try self.groupStoreCall(access.deleteOwnKeyPackage(reference: found.reference))
            try self.groupStoreCall(access.settleJoinRequest(creator: creator.string, tag: tag, status: "joined"))
            // The creator's checked card: a group peer this identity may sync with while they share the group.
            if let creatorCard, creatorCard.feedID == creator {
                try self.groupStoreCall(access.saveGroupPeer(
                    creator, dhKey: Base64URL.encode(creatorCard.publicKeys.dhKey.rawRepresentation), card: creatorCard.encoded))
            }
            return membership
        }
        try follow(membersOf: membership)
        return membership.id
    }

    /// Refuses a Welcome from `sender` that uses a KeyPackage this identity made for another feed: a KeyPackage made
    /// for one contact (automatic offer, `keys share`, `keys export`, an invite join request) lets that contact alone
    /// add this identity, so a contact who passes it on cannot get this identity added by someone else. A KeyPackage
    /// stored without a recipient (none is made so today) is not checked.
    ///
    /// - Throws: ``GroupError/invalidKeyPackage(_:)`` when the recipient is known and is not `sender`.
    static func checkWelcomeSender(_ sender: FeedID, of recipient: String) throws(GroupError) {
        guard !recipient.isEmpty, let madeFor = try? FeedID(recipient) else { return }
        guard madeFor == sender else {
            throw .invalidKeyPackage("the Welcome uses a KeyPackage this identity made for another contact than its sender: refused")
        }
    }

    /// The group tree `author` sent apart for a Welcome (an `mls_group_tree` message and its blob), opened.
    ///
    /// - Throws: ``GroupError/ratchetTreeMissing`` while the message or the blob has not arrived.
    private func groupTree(of id: GroupID, from author: FeedID, _ access: GroupStoreAccess) throws(GroupError) -> [UInt8] {
        guard let offer = try? access.groupTree(of: id.string, from: author.string), let blob = try? access.blob(offer.blob) else {
            throw .ratchetTreeMissing
        }
        do throws(ContactsCipherError) {
            return try BlobCipher.open(blob, contentHash: offer.blob, key: offer.key)
        } catch {
            throw .malformedMessage("the group tree blob does not open: \(error.description)")
        }
    }

    // MARK: Inboxes

    /// One message waiting in a group's inbox.
    private struct InboxItem {
        let entry: GroupInboxEntry
        let wire: GroupWireMessage
        let author: FeedID

        /// Processing order: by epoch; within an epoch application messages and proposals before the commit; then
        /// feed and sequence (deterministic).
        static func precedes(_ lhs: InboxItem, _ rhs: InboxItem) -> Bool {
            let left = (lhs.wire.epoch, lhs.wire.contentType == .commit ? 1 : 0)
            let right = (rhs.wire.epoch, rhs.wire.contentType == .commit ? 1 : 0)
            if left != right { return left < right }
            if lhs.entry.feedID != rhs.entry.feedID { return lhs.entry.feedID < rhs.entry.feedID }
            return lhs.entry.sequence < rhs.entry.sequence
        }
    }

    /// Processes a group's inbox; returns the membership after it and whether the epoch advanced (nil when the group
    /// is not active here). The state is saved once, at the end, in the same transaction as the contents stored: a
    /// crash keeps both or neither.
    private func drainInbox(
        _ id: GroupID, _ access: GroupStoreAccess, report: inout GroupProcessReport
    ) throws(KithError) -> (membership: GroupMembership, advanced: Bool, membersChanged: Bool, profiles: [FeedID: String?])? {
        guard let (record, loaded) = try loadMembership(id, in: access) else {
            report.held += try groupStoreCall(access.inbox(of: id.string)).count  // not joined (yet): a Welcome may still come
            return nil
        }
        guard var membership = loaded else {
            for entry in try groupStoreCall(access.inbox(of: id.string)) {
                try groupStoreCall(access.markProcessed(entry.messageID, group: id.string, outcome: "ended: \(record.status.rawValue)"))
            }
            return nil
        }
        // Messages held for a later epoch by an earlier pass stay out until the group reaches it.
        let entries = try groupStoreCall(access.inbox(of: id.string, atEpoch: membership.epoch))
        let startEpoch = membership.epoch
        var items = try inboxItems(entries, id, access, &report)
        var queriedAt = membership.epoch
        var progressed = true
        var waiting: [InboxItem] = []
        var profiles: [FeedID: String?] = [:]
        // What the pass changed in the state: application messages advance only the ratchets; proposals and commits
        // the rest.
        var receivedContent = false
        var receivedHandshake = false
        // Whether a commit added or removed member feeds (a key update or a readmission changes none): only then is the
        // member list rewritten.
        var membersChanged = false
        while progressed {
            progressed = false
            if membership.epoch > queriedAt {
                // The group moved on: messages held for the epochs it reached come back into the pass.
                queriedAt = membership.epoch
                let known = Set((items + waiting).map(\.entry.messageID))
                let reached = try groupStoreCall(access.inbox(of: id.string, atEpoch: queriedAt)).filter { !known.contains($0.messageID) }
                items += try inboxItems(reached, id, access, &report)
            }
            items.sort(by: InboxItem.precedes)
            var index = 0
            while index < items.count {
                let item = items[index]
                if item.wire.epoch > membership.epoch {
                    index += 1
                    continue
                }
                items.remove(at: index)
                if item.wire.epoch < membership.epoch, item.wire.isHandshake {
                    try groupStoreCall(
                        access.markProcessed(item.entry.messageID, group: id.string, outcome: "stale: epoch \(item.wire.epoch), group at \(membership.epoch)"))
                    continue
                }
                let receipt: GroupReceipt
                do throws(GroupError) {
                    receipt = try membership.receive(item.wire, from: item.author)
                } catch .missingProposal {
                    // Held with its epoch: the proposal it names comes with the proposer's feed.
                    waiting.append(item)
                    continue
                } catch {
                    try refuse(item.entry.messageID, id, error.description, access, &report)
                    continue
                }
                switch receipt {
                case .content(let plaintext, _):
                    receivedContent = true
                    if let content = try storeGroupContent(plaintext, item, access, &report), case .profileUpdate(let update) = content {
                        profiles[item.author] = update.displayName
                    }
                case .proposal:
                    receivedHandshake = true
                    let removal = membership.state.pendingProposals.last.map { $0.proposal.type == .remove } ?? false
                    try storeEvent(item, kind: removal ? .removeMember : .updateKey, id, access)
                case .newEpoch(let change):
                    receivedHandshake = true
                    if !change.added.isEmpty || !change.removed.isEmpty { membersChanged = true }
                    try storeEvent(item, kind: change.kind, id, access)
                    report.commits += 1
                    progressed = true
                case .removed:
                    // Removed from a conversation set to explode: the removal is the committer's explosion signal.
                    let exploding = membership.explodeAt != nil || record.explodeAt != nil
                    try storeEvent(item, kind: .removeMember, id, access)
                    try endGroup(id, record: record, status: exploding ? .exploded : membership.intents.leave ? .left : .removed, access)
                    report.ended.append(id)
                    return nil
                }
                if progressed { break }
            }
        }
        report.held += items.count + waiting.count
        // Read once: the next passes skip them until the group reaches their epoch.
        for item in items where item.wire.epoch > membership.epoch {
            try groupStoreCall(access.hold(item.entry.messageID, group: id.string, epoch: item.wire.epoch))
        }
        let advanced = membership.epoch != startEpoch
        if receivedHandshake || advanced {
            try save(membership, name: record.name, explodeAt: record.explodeAt, createdAt: record.createdAt, membersChanged: membersChanged, in: access)
        } else if receivedContent {
            try save(membership, name: record.name, explodeAt: record.explodeAt, createdAt: record.createdAt, membersChanged: false, ratchetsOnly: true,
                     in: access)
        } else {
            // Nothing was received (held, refused, waiting): the state is the stored one.
            cacheAfterCommit(membership, version: record.version, in: access)
        }
        return (membership, advanced, membersChanged, profiles)
    }

    /// Parses inbox entries; a malformed one is refused (recorded, never read again).
    private func inboxItems(
        _ entries: [GroupInboxEntry], _ id: GroupID, _ access: GroupStoreAccess, _ report: inout GroupProcessReport
    ) throws(KithError) -> [InboxItem] {
        var items: [InboxItem] = []
        for entry in entries {
            do throws(GroupError) {
                let author = try Self.feed(entry.feedID)
                items.append(InboxItem(entry: entry, wire: try GroupWireMessage(entry.contentBytes, group: id), author: author))
            } catch {
                try refuse(entry.messageID, id, error.description, access, &report)
            }
        }
        return items
    }

    /// Stores one decrypted application content; returns it, or nil when it was refused.
    @discardableResult
    private func storeGroupContent(_ plaintext: [UInt8], _ item: InboxItem, _ access: GroupStoreAccess, _ report: inout GroupProcessReport) throws(KithError) -> Content? {
        // The MLS state advanced (the key is used up) whatever the content is; unshowable content is refused, not retried.
        let content: Content
        do throws(FeedError) {
            content = try Content.parse(plaintext, envelopeType: item.entry.type)
            guard content.isKnown, !Self.notInGroups.contains(content.type) else {
                throw FeedError.invalidContent(type: item.entry.type, reason: "not allowed in a group")
            }
        } catch {
            try refuse(item.entry.messageID, GroupID?.none, error.description, access, &report)
            return nil
        }
        try groupStoreCall(access.storeContent(plaintext, of: item.entry.envelope, content: content))
        try groupStoreCall(access.markProcessed(item.entry.messageID, group: "", outcome: "stored"))
        if testingHooks.failAfterGroupContent() {
            throw .store(.database("injected fault after storing group content"))
        }
        if let id = try? MessageID(item.entry.messageID) { report.opened.append(id) }
        return content
    }

    /// Content types that make no sense in a group (key material for one contact, feed-level keys, introductions):
    /// refused when they arrive as group content, and never sent as such.
    static let notInGroups: Set<String> = ["group_event", "mls_key_package", "mls_group_tree", "prekey_batch", "key_rotation", "contact_introduction",
                                                "invite_join_request", "invite_join_error", "push_tokens"]

    private func storeEvent(_ item: InboxItem, kind: GroupEventKind, _ id: GroupID, _ access: GroupStoreAccess) throws(KithError) {
        let event = GroupEvent(groupID: id.string, event: kind.rawValue, mlsMessage: Base64URL.encode(item.entry.contentBytes))
        guard item.entry.type == "group_event" else {
            try refuse(item.entry.messageID, id, "a handshake message must travel as a group_event", access)
            return
        }
        let plaintext: [UInt8]
        do throws(FeedError) { plaintext = try Content.groupEvent(event).canonicalBytes() } catch { throw .feed(error) }
        try groupStoreCall(access.storeContent(plaintext, of: item.entry.envelope, content: nil))
        try groupStoreCall(access.markProcessed(item.entry.messageID, group: id.string, outcome: item.wire.contentType == .commit ? "commit" : "proposal"))
    }

    private func refuse(_ messageID: String, _ id: GroupID?, _ reason: String, _ access: GroupStoreAccess, _ report: inout GroupProcessReport) throws(KithError) {
        try groupStoreCall(access.markProcessed(messageID, group: id?.string ?? "", outcome: "refused: " + reason))
        if let message = try? MessageID(messageID) { report.refused.append((message, reason)) }
    }

    private func refuse(_ messageID: String, _ id: GroupID, _ reason: String, _ access: GroupStoreAccess) throws(KithError) {
        var report = GroupProcessReport()
        try refuse(messageID, id, reason, access, &report)
    }

    /// Ends a membership: state, keys and member list go; the record stays with its status.
    func endGroup(_ id: GroupID, record: GroupRecord, status: GroupRecord.Status, _ access: GroupStoreAccess) throws(KithError) {
        var ended = record
        ended.state = []
        ended.ratchets = []
        ended.status = status
        try groupStoreCall(access.save(ended, members: []))
        if status == .exploded { try groupStoreCall(access.clearContent(of: id.string)) }
    }

    private static func feed(_ text: String) throws(GroupError) -> FeedID {
        do { return try FeedID(text) } catch { throw .malformedMessage("bad feed id") }
    }

    // MARK: Follow-ups

    /// Follows the feeds of a group's members not followed yet (their group messages are entries of their own feeds;
    /// members need not be each other's contacts).
    private func follow(membersOf membership: GroupMembership) throws(KithError) {
        let members = membership.memberFeedKeys
        let known = try readGroupStore { access in try access.followed(among: members.map(\.feed.string)) }
        for member in members where member.feed != feedID && !known.contains(member.feed.string) {
            do throws(StoreError) { try store.follow(identityKey: member.key) } catch { throw .store(error) }
        }
    }

    /// After a pass, for a group it touched: the committer commits pending proposals; a member re-proposes the intents
    /// a new epoch left unapplied. Returns whether it appended a handshake.
    @discardableResult
    private func followUp(_ id: GroupID, _ membership: GroupMembership, advanced: Bool, profiles: [FeedID: String?]) throws(KithError) -> Bool {
        if membership.isCommitter, !profiles.isEmpty {
            // Members' profile updates: each changes that member's own entry of the metadata, nothing else.
            let members = membership.memberFeeds
            let committed = try commitMetadataChange(id) { current throws(ConversationMetadataError) in
                var next = current
                for (member, name) in profiles.sorted(by: { $0.key < $1.key }) where members.contains(member) {
                    next = try next.applyingUpdate(try next.updatingProfile(of: member, name: name, image: nil), from: member)
                }
                return next
            }
            // That commit included the pending proposals too.
            if committed { return true }
        }
        if membership.isCommitter, !membership.state.pendingProposals.isEmpty {
            try commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) {
                    guard let handshake = try membership.commitPendingProposals() else { throw .mls("nothing pending") }
                    return handshake
                } catch {
                    throw .group(error)
                }
            }
            return true
        } else if !membership.isCommitter, advanced, membership.intents.update || membership.intents.leave {
            try commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) {
                    guard let handshake = try membership.reproposeIntents().first else { throw .mls("nothing to re-propose") }
                    return handshake
                } catch {
                    throw .group(error)
                }
            }
            return true
        }
        return false
    }
}

extension Account.Groups {
    /// Joins groups from Welcomes and processes every group message not yet processed, each exactly once: application
    /// messages are decrypted and stored, proposals kept, commits applied in epoch order; a message of an epoch not
    /// reached yet is held until it is. Then the committer commits what members proposed, and a member re-proposes
    /// what a new epoch left unapplied.
    ///
    /// Called by every import and sync; call it after receiving entries some other way.
    @discardableResult
    public func process() async throws(KithError) -> GroupProcessReport {
        try await BlockingWork.run { () throws(KithError) in try account.processGroupMessagesBlocking() }
    }
}
