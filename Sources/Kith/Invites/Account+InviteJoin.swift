import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithMLS
import KithStore

/// The invite join flow (docs/INVITES.md, "Join flow"): the joiner's request, the creator's checks and commit, the
/// replies.
extension Account {
    // MARK: Creator

    @discardableResult
    func processInviteMessagesBlocking() throws(KithError) -> InviteProcessReport {
        var report = InviteProcessReport()
        let (requests, errors) = try readGroupStore { access in
            (try access.joinRequests(to: self.feedID.string), try access.joinErrors(to: self.feedID.string))
        }
        if !requests.isEmpty {
            let ladder = InviteJoinLadder(key: try inviteSigningKey(), inboxID: invites.inboxID)
            for request in requests { try handle(request, ladder: ladder, report: &report) }
        }
        for error in errors {
            guard case .inviteJoinError(let content)? = try? Content.parse(error.plaintext, envelopeType: "invite_join_error"),
                  let creator = try? FeedID(error.author) else {
                try withGroupStore { access throws(KithError) in
                    try self.groupStoreCall(access.markProcessed(error.messageID, group: "", outcome: "refused: not an invite_join_error"))
                }
                continue
            }
            try withGroupStore { access throws(KithError) in
                try self.groupStoreCall(access.settleJoinRequest(creator: creator.string, tag: content.tag, status: "refused"))
                try self.groupStoreCall(access.markProcessed(error.messageID, group: "", outcome: "join error: \(content.error)"))
            }
            report.joinErrors.append((creator, content.tag, content.error))
        }
        return report
    }

    /// One join request: the ladder, then the commit or the refusal.
    private func handle(
        _ request: (messageID: String, author: String, plaintext: [UInt8]), ladder: InviteJoinLadder, report: inout InviteProcessReport
    ) throws(KithError) {
        let now = clock()
        let requester = request.author
        let outcome: Result<InviteJoinLadder.Admission, InviteJoinRefusal>
        if !inviteJoinBudget.withLock({ $0.admits(requester, now: now) }) {
            outcome = .failure(.rateLimited)
        } else if case .inviteJoinRequest(let content)? = try? Content.parse(request.plaintext, envelopeType: "invite_join_request") {
            do throws(InviteJoinRefusal) {
                let admission = try ladder.check(
                    code: content.invite, handled: (try? readGroupStore { try $0.isProcessed(request.messageID) }) ?? false, now: now,
                    group: { self.ladderView(of: $0, requester: requester) },
                    consumed: { id in (try? self.readGroupStore { try $0.isInviteConsumed(id) }) ?? true })
                try admit(requester: requester, keyPackage: content.keyPackageBytes, admission: admission)
                outcome = .success(admission)
            } catch {
                outcome = .failure(error)
            }
        } else {
            outcome = .failure(.unreadable(.malformedProtobuf("not an invite_join_request")))
        }
        switch outcome {
        case .success(let admission):
            try withGroupStore { access throws(KithError) in
                try self.groupStoreCall(access.markProcessed(request.messageID, group: admission.groupID, outcome: "admitted"))
            }
            if let group = try? GroupID(admission.groupID), let member = try? FeedID(requester) {
                report.admitted.append(.init(group: group, member: member))
            }
        case .failure(let refusal):
            inviteJoinBudget.withLock { $0.recordRefusal(of: requester, now: now) }
            try withGroupStore { access throws(KithError) in
                try self.groupStoreCall(access.markProcessed(request.messageID, group: "", outcome: "refused: \(refusal.description)"))
            }
            report.refused.append((request.messageID, requester, refusal))
            if let kind = refusal.replyKind, let peer = try? FeedID(requester),
               case .inviteJoinRequest(let content)? = try? Content.parse(request.plaintext, envelopeType: "invite_join_request"),
               let tag = (try? InviteCode.decode(InviteLink(parsing: content.invite).code))?.payload.tag {
                // A reply that cannot be sealed (the requester's keys went stale) must not stop the pass.
                _ = try? sendDirectBlocking(.inviteJoinError(InviteJoinError(tag: tag, error: kind, reason: refusal.description)), to: peer)
            }
        }
    }

    /// The creator's view of a group for the ladder.
    func ladderView(of groupID: String, requester: String) -> InviteJoinLadder.GroupView? {
        guard let id = try? GroupID(groupID),
              let (record, membership) = try? withGroupStore({ access throws(KithError) in try self.loadMembership(id, in: access) })
        else { return nil }
        if record.status == .exploded { return .init(tag: "", exploded: true, requesterIsMember: false) }
        guard record.status == .active, let membership else { return nil }
        let exploded = (membership.explodeAt ?? .max) <= clock()
        let isMember = membership.memberFeeds.contains { $0.string == requester }
        return .init(tag: membership.metadata?.tag ?? "", exploded: exploded, requesterIsMember: isMember)
    }

    /// Adds the requester with its KeyPackage in one commit; a single-use invite is consumed in the same transaction.
    private func admit(requester: String, keyPackage bytes: [UInt8], admission: InviteJoinLadder.Admission) throws(InviteJoinRefusal) {
        guard let id = try? GroupID(admission.groupID), let owner = try? FeedID(requester),
              let keyPackage = try? GroupKeyPackage.decode(bytes), (try? GroupKeyPackage.check(keyPackage, owner: owner)) != nil else {
            throw .addFailed("the request's KeyPackage is not the requester's")
        }
        // The rule of addToGroup: only a contact whose keys are verified is added.
        guard let record = try? contactRecordBlocking(owner), record.keyIsVerified else {
            throw .addFailed("the requester's keys are not verified here")
        }
        do throws(KithError) {
            try commitToGroup(id) { membership, access throws(KithError) in
                if admission.singleUse {
                    try self.groupStoreCall(access.consumeInvite(admission.inviteID, group: admission.groupID, requester: requester))
                }
                do throws(GroupError) { return try membership.commit(adding: [keyPackage]) } catch { throw .group(error) }
            }
            try flushWelcomes()
        } catch {
            throw .addFailed(error.description)
        }
    }
}

extension Account.Invites {
    /// Asks an invite's creator to add this identity to the invite's group: checks the invite here (it reads, has not
    /// expired, keeps Kith's field bounds, and its signer is the invite key on the creator's contact card), then sends
    /// the creator an `invite_join_request` with a KeyPackage made for it over the direct session. The creator adds
    /// this identity when it next processes messages; the Welcome arrives as usual.
    ///
    /// The creator must be a contact: a direct session needs the creator's keys. For a creator never met, use an invite
    /// that carries Kith's reach field with ``Account/Invites/prepareStrangerJoin(_:)`` and ``Account/Invites/joinAsStranger(_:over:initiator:deadline:)``
    /// (docs/INVITES.md, "Joiners who never met the creator").
    ///
    /// - Throws: ``KithError/invite(_:)`` for an unreadable, expired, over-bound or forged invite;
    ///   ``KithError/contacts(_:)`` when the creator is not a contact.
    @discardableResult
    public func accept(_ text: String) async throws(KithError) -> InviteInspection {
        try await BlockingWork.run { () throws(KithError) in
            let inspection = try account.inspectInviteBlocking(text)
            let payload = inspection.invite.payload
            do throws(InviteError) {
                try payload.checkNotExpired(nowUnix: account.clock())
                try payload.checkKithBounds()
            } catch {
                throw .invite(error)
            }
            guard let creator = payload.creatorInboxID.feedID else { throw .invite(.invalidInboxID(bytes: InviteLimits.inboxIDBytes)) }
            guard creator != account.feedID else { throw .input(.invalid("this is an invite of this identity's own")) }
            let record = try account.contactRecordBlocking(creator)
            guard case .knownContact = inspection.signerCheck else { throw .invite(.signerMismatch) }
            let keyPackage = try account.makeKeyPackageBlocking(for: record)
            let code: String
            do throws(InviteError) { code = try InviteLink(parsing: text).code } catch { throw .invite(error) }
            try account.withGroupStore { access throws(KithError) in
                try account.groupStoreCall(
                    access.recordJoinRequest(creator: creator.string, tag: payload.tag, inviteID: InviteJoinLadder.inviteID(of: inspection.invite)))
            }
            _ = try account.sendDirectBlocking(.inviteJoinRequest(InviteJoinRequest(invite: code, keyPackageBytes: keyPackage)), to: creator)
            return inspection
        }
    }

    /// Where this identity's join request to `creator` for `tag` stands: `pending`, `joined`, `refused`, or nil when
    /// none was sent.
    public func joinRequestStatus(creator: FeedID, tag: String) async throws(KithError) -> String? {
        try await BlockingWork.run { () throws(KithError) in
            try account.readGroupStore { access in try access.joinRequestStatus(creator: creator.string, tag: tag) }
        }
    }

    /// Handles every unprocessed invite message, each once: as a creator, join requests (the checks of
    /// `InviteJoinLadder` (KithInvites) in order, then one commit adding the requester; refusals answered with an
    /// `invite_join_error` when the ladder says so, at most a few per requester per hour); as a joiner, join errors
    /// and Welcomes that settle requests sent.
    ///
    /// Called by every group processing pass (so by every import and sync).
    @discardableResult
    public func process() async throws(KithError) -> InviteProcessReport {
        try await BlockingWork.run { () throws(KithError) in try account.processInviteMessagesBlocking() }
    }
}
