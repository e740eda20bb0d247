import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithMLS
import KithStore

/// The plumbing under the group API: transactions, records, appends that advance a group's state.
extension Account {
    /// The group layer's clock (Unix seconds).
    var groupClock: @Sendable () -> UInt64 {
        let clock = clock
        return { UInt64(max(0, clock())) }
    }

    /// Runs `body` in one write transaction of the store with group access, keeping its typed error.
    func withGroupStore<T>(_ body: (GroupStoreAccess) throws(KithError) -> T) throws(KithError) -> T {
        var failure: KithError?
        do throws(StoreError) {
            return try store.withGroupState { access in
                do throws(KithError) { return try body(access) } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            if let failure { throw failure }
            throw .store(error)
        }
    }

    /// Reads group state.
    func readGroupStore<T>(_ body: (GroupStoreAccess) throws -> T) throws(KithError) -> T {
        do throws(StoreError) { return try store.readGroupState(body) } catch { throw .store(error) }
    }

    /// Runs one store call inside a group transaction (`try groupStoreCall(access.save(…))`), reporting its
    /// ``StoreError`` as ``KithError/store(_:)``.
    @discardableResult
    func groupStoreCall<T>(_ call: @autoclosure () throws(StoreError) -> T) throws(KithError) -> T {
        do throws(StoreError) { return try call() } catch { throw .store(error) }
    }

    /// Saves a membership (state sealed, members listed) in `access`'s transaction.
    ///
    /// The state is stored in two parts (docs/GROUPS.md, "Storage"): ``GroupMembership/serializedWithoutRatchets()``
    /// and the message-key ratchets. `ratchetsOnly: true` — after application messages alone, which advance nothing
    /// else — rewrites only the ratchets (a whole state stored before the split is then written in two parts).
    /// `membersChanged: false` skips rewriting the member list (no commit since the last save added or removed a member feed).
    func save(_ membership: GroupMembership, name: String?, explodeAt: Int64?, status: GroupRecord.Status = .active, createdAt: Int64? = nil,
              membersChanged: Bool = true, ratchetsOnly: Bool = false, in access: GroupStoreAccess) throws(KithError) {
        let id = membership.id.string
        if ratchetsOnly, status == .active {
            let ratchets: [UInt8]
            do throws(GroupError) { ratchets = try membership.serializedRatchets() } catch { throw .group(error) }
            if let version = try groupStoreCall(access.saveRatchets(ratchets, of: id)) {
                cacheAfterCommit(membership, version: version, in: access)
                return
            }
        }
        let state: [UInt8]
        let ratchets: [UInt8]
        do throws(GroupError) {
            state = status == .active ? try membership.serializedWithoutRatchets() : []
            ratchets = status == .active ? try membership.serializedRatchets() : []
        } catch {
            throw .group(error)
        }
        // A group with conversation metadata takes its name and explosion time from it (the committer's word).
        let shared = membership.metadata != nil
        var record = GroupRecord(
            groupID: id, name: membership.groupName ?? name, epoch: membership.epoch, state: state, status: status,
            committer: (try? membership.policy.committer)?.string, explodeAt: shared ? membership.explodeAt : explodeAt,
            createdAt: createdAt ?? clock() * 1000
        )
        record.ratchets = ratchets
        let members: [String]? = status != .active ? [] : membersChanged ? membership.members.map(\.feed.string) : nil
        let version = try groupStoreCall(access.save(record, members: members))
        if status == .active {
            cacheAfterCommit(membership, version: version, in: access)
        } else {
            access.afterCommit { [self] in groupStates.withLock { $0[id] = nil } }
        }
    }

    /// Keeps `membership` as the restored state of `version` once `access`'s transaction commits.
    func cacheAfterCommit(_ membership: GroupMembership, version: Int64, in access: GroupStoreAccess) {
        let id = membership.id.string
        access.afterCommit { [self] in groupStates.withLock { $0[id] = (version, membership) } }
    }

    /// A group's record and restored membership in `access`'s transaction; the restored state kept from an earlier
    /// pass is reused while the store's version matches it. Nil for an unknown group.
    func loadMembership(_ id: GroupID, in access: GroupStoreAccess) throws(KithError) -> (GroupRecord, GroupMembership?)? {
        guard let header = try groupStoreCall(access.group(id.string, loadingState: false)) else { return nil }
        guard header.status == .active else { return (header, nil) }
        if let cached = groupStates.withLock({ $0[id.string] }), cached.version == header.version { return (header, cached.membership) }
        guard let record = try groupStoreCall(access.group(id.string)) else { return nil }
        return (record, try restoredMembership(record))
    }

    /// The membership a record holds: a whole state, or the per-epoch part with its ratchets.
    func restoredMembership(_ record: GroupRecord) throws(KithError) -> GroupMembership {
        do throws(GroupError) {
            return try GroupMembership(serialized: record.state, ratchets: record.ratchets.isEmpty ? nil : record.ratchets, now: groupClock)
        } catch {
            throw .group(error)
        }
    }

    /// The active membership of `id` in `access`'s transaction, with its record.
    func activeMembership(_ id: GroupID, in access: GroupStoreAccess) throws(KithError) -> (GroupRecord, GroupMembership) {
        guard let (record, membership) = try loadMembership(id, in: access) else { throw .group(.unknownGroup(id.string)) }
        guard let membership else { throw .group(.ended(record.status.rawValue)) }
        return (record, membership)
    }

    /// Makes a handshake (commit or proposal) under the append's write lock and appends it to this feed as a
    /// `group_event` of the group's audience; the advanced state, the Welcomes to send and the envelope commit together.
    ///
    /// `handOver`, when given, sees each joiner's Welcome (TLS-encoded `MLSMessage`) and the ratchet tree when it
    /// travels apart; a Welcome it takes (returns true) is not queued for a direct message: the invite exchange hands
    /// it to a joiner that is not a contact over its own link.
    @discardableResult
    func commitToGroup(
        _ id: GroupID, handOver: ((FeedID, [UInt8], [UInt8]?) -> Bool)? = nil,
        make: (inout GroupMembership, GroupStoreAccess) throws(KithError) -> GroupHandshake
    ) throws(KithError) -> Envelope {
        let envelope = try appendMaking(type: "group_event", audience: .group(id.string)) { slot throws(KithError) in
            let access = slot.groups
            let (record, membership) = try self.activeMembership(id, in: access)
            var work = membership
            work.inBandTreeLimit = self.testingHooks.groupTreeInBandLimit
            let handshake = try make(&work, access)
            let bytes = handshake.message.tlsEncoded
            guard bytes.count <= GroupWireMessage.maxHandshakeBytes else { throw .group(.handshakeTooLarge(bytes.count)) }
            let event = GroupEvent(groupID: id.string, event: handshake.kind.rawValue, mlsMessage: Base64URL.encode(bytes))
            let plaintext: [UInt8]
            do throws(FeedError) { plaintext = try Content.groupEvent(event).canonicalBytes() } catch { throw .feed(error) }
            try self.save(work, name: record.name, explodeAt: record.explodeAt, createdAt: record.createdAt, in: access)
            // A tree too large for the Welcome goes into one encrypted blob that every joiner of this commit fetches.
            var tree: GroupTreeOffer?
            if let treeBytes = handshake.ratchetTree, !handshake.joiners.isEmpty {
                let sealed: BlobCipher.Sealed
                do throws(ContactsCipherError) { sealed = try BlobCipher.seal(treeBytes) } catch { throw .group(.mls("the group tree: \(error)")) }
                _ = try self.groupStoreCall(access.putBlob(sealed.blob))
                tree = GroupTreeOffer(groupID: id.string, blob: sealed.contentHash, key: sealed.key)
            }
            for joiner in handshake.joiners {
                guard let welcome = handshake.welcome(for: joiner) else { continue }
                let welcomeBytes = MLSMessage(body: .welcome(welcome)).tlsEncoded
                guard welcomeBytes.count <= GroupWireMessage.maxHandshakeBytes else { throw .group(.handshakeTooLarge(welcomeBytes.count)) }
                if let handOver, handOver(joiner, welcomeBytes, handshake.ratchetTree) { continue }
                try self.groupStoreCall(access.queueWelcome(welcomeBytes, group: id.string, recipient: joiner.string, tree: tree))
            }
            return (bytes, plaintext)
        }
        return envelope
    }

    /// Encrypts content for the group under the append's write lock and appends it (audience `group:{id}`).
    func appendGroupMessage(
        _ id: GroupID, plaintext: [UInt8], type: String, encrypt: (inout GroupMembership) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        try appendMaking(type: type, audience: .group(id.string)) { slot throws(KithError) in
            let access = slot.groups
            let (record, membership) = try self.activeMembership(id, in: access)
            if let explodeAt = record.explodeAt, explodeAt <= self.clock() { throw .group(.ended("exploded")) }
            var work = membership
            let content = try encrypt(&work)
            // Encrypting advances this member's application ratchet and nothing else.
            try self.save(work, name: record.name, explodeAt: record.explodeAt, createdAt: record.createdAt, membersChanged: false, ratchetsOnly: true,
                          in: access)
            return (content, plaintext)
        }
    }

    /// Sends the queued Welcomes as direct `group_event` messages, each removed from the queue once sent.
    func flushWelcomes() throws(KithError) {
        let queued = try readGroupStore { access in try access.queuedWelcomes() }
        for item in queued {
            if let recipient = try? FeedID(item.recipient), (try? contactRecordBlocking(recipient)) != nil {
                // The tree's whereabouts first: the joiner reads its direct messages in order.
                if let tree = item.tree { _ = try sendDirectBlocking(.groupTreeOffer(tree), to: recipient) }
                let event = GroupEvent(groupID: item.groupID, event: GroupEventKind.addMember.rawValue, mlsMessage: Base64URL.encode(item.message))
                _ = try sendDirectBlocking(.groupEvent(event), to: recipient)
            }
            try withGroupStore { access throws(KithError) in
                try self.groupStoreCall(access.dequeueWelcome(group: item.groupID, recipient: item.recipient))
            }
        }
    }

    /// The facade's view of a record.
    func summary(_ record: GroupRecord, withMetadata: Bool = false) throws(KithError) -> GroupSummary {
        let id: GroupID
        do throws(GroupError) { id = try GroupID(record.groupID) } catch { throw .group(error) }
        let committer = record.committer.flatMap { try? FeedID($0) }
        let members = try readGroupStore { access in try access.members(of: record.groupID) }.compactMap { try? FeedID($0.feedID) }
        var metadata: ConversationMetadata?
        if withMetadata, record.status == .active { metadata = (try? restoredMembership(record))?.metadata }
        return GroupSummary(
            id: id, name: record.name, epoch: record.epoch, status: record.status,
            members: members, committer: committer, explodeAt: record.explodeAt, isCommitter: committer == feedID, metadata: metadata
        )
    }
}
