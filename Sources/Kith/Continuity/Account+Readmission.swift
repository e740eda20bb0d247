import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithStore

/// A member's side of readmission after a restore (docs/CONTINUITY.md section 8): a contact restored from a backup
/// asks, with a `mls_key_package` carrying `readmit`, to have its old leaf replaced. The committer honours a request
/// with one commit (the old leaves of that feed removed, the new KeyPackage added) only when the requester is a current
/// member of the group, the KeyPackage is valid and names the requester (its identity key, its signature), and the
/// requester was not readmitted to that group within ``Account/readmissionInterval``.
///
/// When the requester is the group's committer, nobody can commit for it by the ordinary rule; its request to one
/// member then carries a signed warrant (``CommitterReadmission``) naming that member as proxy, and the proxy makes the
/// one commit the warrant allows (docs/CONTINUITY.md section 8, "When the committer was the one restored").
extension Account {
    /// Keeps a readmission request that came in a contact's direct message (inside that message's transaction); one
    /// whose KeyPackage is not the sender's own is ignored, like any KeyPackage offer, and so is one whose warrant does
    /// not name the sender as committer, `own` as proxy, the same group and the same KeyPackage. Returns whether one was
    /// kept.
    static func recordReadmissionRequest(_ offer: KeyPackageOffer, from peer: FeedID, to own: FeedID, access: DirectSessionAccess) throws -> Bool {
        guard let group = offer.readmitGroup, let keyPackage = try? GroupKeyPackage.decode(offer.keyPackageBytes),
              (try? GroupKeyPackage.check(keyPackage, owner: peer)) != nil, let reference = try? GroupKeyPackage.reference(keyPackage) else { return false }
        var warrantBytes: [UInt8]?
        if offer.committerReadmission != nil {
            guard let bytes = offer.committerReadmissionBytes, let warrant = try? CommitterReadmission(decoding: bytes), warrant.committer == peer,
                  warrant.proxy == own, warrant.groupID.string == group, warrant.keyPackageReference == reference else { return false }
            warrantBytes = bytes
        }
        try access.recordReadmissionRequest(
            keyPackageReference: Base64URL.encode(reference), groupID: group, requester: peer.string, committerReadmission: warrantBytes)
        return true
    }

    /// Settles every pending readmission request: honoured with one commit each, or refused with the reason.
    func honourReadmissionRequestsBlocking() throws(KithError) {
        let pending = try readGroupStore { access in try access.pendingReadmissionRequests() }
        guard !pending.isEmpty else { return }
        var committed = false
        for request in pending {
            let now = clock()
            do throws(KithError) {
                try honourReadmission(request, now: now)
                committed = true
            } catch {
                let reason: String
                if case .input(.invalid(let text)) = error { reason = text } else { reason = error.description }
                try withGroupStore { access throws(KithError) in
                    try self.groupStoreCall(access.settleReadmissionRequest(request.keyPackageReference, state: .refused, reason: reason, at: now))
                }
            }
        }
        if committed { try flushWelcomes() }
    }

    /// One request: the checks, then the commit (the checks run again under the append's write lock).
    private func honourReadmission(_ request: ReadmissionRequest, now: Int64) throws(KithError) {
        let groupID: GroupID
        let requester: FeedID
        do throws(GroupError) { groupID = try GroupID(request.groupID) } catch { throw .input(.invalid("not a group id")) }
        do throws(IdentityError) { requester = try FeedID(request.requester) } catch { throw .input(.invalid("not a feed id")) }
        try commitToGroup(groupID) { membership, access throws(KithError) in
            let warrant = try self.checkReadmission(request, in: access, now: now)
            guard let bytes = try self.groupStoreCall(access.takePeerKeyPackage(reference: request.keyPackageReference, of: request.requester)) else {
                throw .input(.invalid("its KeyPackage was used already"))
            }
            try self.groupStoreCall(access.settleReadmissionRequest(request.keyPackageReference, state: .honoured, at: now))
            do throws(GroupError) {
                let keyPackage = try GroupKeyPackage.decode(bytes)
                try GroupKeyPackage.check(keyPackage, owner: requester)
                if let warrant { return try membership.readmitCommitter(keyPackage: keyPackage, warrant: warrant) }
                return try membership.commit(adding: [keyPackage], removing: [requester])
            } catch .committerReadmission(let reason) {
                throw .input(.invalid("its committer readmission: \(reason)"))
            } catch {
                throw .group(error)
            }
        }
    }

    /// Throws the reason a request is refused: this identity is not the group's committer (nor the proxy the
    /// requester, as committer, named), the requester is not a current member, or it was readmitted to the group
    /// within ``Account/readmissionInterval``. Returns the warrant when this identity commits as the committer's proxy.
    private func checkReadmission(_ request: ReadmissionRequest, in access: GroupStoreAccess, now: Int64) throws(KithError) -> CommitterReadmission? {
        guard let record = try groupStoreCall(access.group(request.groupID, loadingState: false)), record.status == .active else {
            throw .input(.invalid("this identity is not a member of that group"))
        }
        var warrant: CommitterReadmission?
        if record.committer != feedID.string {
            guard record.committer == request.requester, let bytes = request.committerReadmission else {
                throw .input(.invalid("only the group's committer readmits members"))
            }
            do throws(GroupError) { warrant = try CommitterReadmission(decoding: bytes) } catch { throw .input(.invalid(error.description)) }
        }
        let members = try groupStoreCall(access.members(of: request.groupID))
        guard members.contains(where: { $0.feedID == request.requester }) else {
            throw .input(.invalid("the requester is not a current member of that group"))
        }
        if let last = try groupStoreCall(access.lastReadmission(of: request.requester, to: request.groupID)), now - last < Self.readmissionInterval {
            throw .input(.invalid("the requester was readmitted to that group less than \(Self.readmissionInterval) seconds ago"))
        }
        return warrant
    }
}

extension Account.Groups {
    /// The readmission requests this identity received from restored contacts, and how each was settled.
    public func readmissionRequests() async throws(KithError) -> [ReadmissionRequest] {
        try await BlockingWork.run { () throws(KithError) in try account.readGroupStore { access in try access.readmissionRequests() } }
    }
}
