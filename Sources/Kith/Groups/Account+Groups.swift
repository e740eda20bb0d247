import Crypto
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithMLS
import KithStore

/// Group conversations on MLS carried by feeds (docs/GROUPS.md).
///
/// ```swift
/// let group = try await alice.groups.create(name: "climbing")
/// try await bob.groups.shareKeyPackage(with: alice.feedID)   // or just sync: every sync offers the peer one (automatic)
/// try await alice.groups.add(group.id, contacts: [bob.feedID])
/// try await alice.groups.send(group.id, text: "saturday?")
/// // after a sync, on Bob's device:
/// try await bob.groups.process()                   // also done by every import and sync
/// let messages = try await bob.groups.messages(group.id)
/// ```
extension Account {
    // MARK: Creating and listing

    func createGroupBlocking(name: String, explodeAt: Int64?) throws(KithError) -> GroupSummary {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= GroupMembership.maxNameBytes, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .input(.invalid("a group name is 1 to 128 bytes of text without control characters"))
        }
        if let explodeAt, explodeAt <= clock() { throw .input(.invalid("the explosion time must be in the future")) }
        let id = GroupID.random()
        let membership: GroupMembership
        let identityKey = try originalIdentityKey()
        let creatorName = try ownProfileBlocking()?.displayName
        do throws(GroupError) {
            let extensions = try GroupMembership.initialExtensions(name: trimmed, creator: feedID, creatorName: creatorName, explodeAt: explodeAt)
            membership = try GroupMembership.create(id: id, owner: feedID, identityKey: identityKey, extensions: extensions, now: groupClock)
        } catch {
            throw .group(error)
        }
        try withGroupStore { access throws(KithError) in
            try self.save(membership, name: trimmed, explodeAt: explodeAt, in: access)
        }
        return try groupBlocking(id)
    }

    func groupBlocking(_ id: GroupID) throws(KithError) -> GroupSummary {
        guard let record = try readGroupStore({ access in try access.group(id.string) }) else { throw .group(.unknownGroup(id.string)) }
        return try summary(record, withMetadata: true)
    }

    /// Commits a change of the conversation metadata (committer only); nothing when it changes nothing. Returns whether
    /// it committed.
    @discardableResult
    func commitMetadataChange(
        _ id: GroupID, _ change: @escaping (ConversationMetadata) throws(ConversationMetadataError) -> ConversationMetadata
    ) throws(KithError) -> Bool {
        let membership = try withGroupStore { access throws(KithError) in try self.activeMembership(id, in: access).1 }
        var probe = membership
        let needed: Bool
        do throws(GroupError) { needed = try probe.commitMetadata(change) != nil } catch { throw .group(error) }
        guard needed else { return false }
        try commitToGroup(id) { membership, _ throws(KithError) in
            do throws(GroupError) {
                guard let handshake = try membership.commitMetadata(change) else { throw .mls("no metadata change") }
                return handshake
            } catch {
                throw .group(error)
            }
        }
        return true
    }

    // MARK: KeyPackages

    func shareKeyPackageBlocking(with contact: FeedID) throws(KithError) -> Envelope {
        let record = try contactRecordBlocking(contact)
        let bytes = try makeKeyPackageBlocking(for: record)
        return try sendDirectBlocking(.keyPackageOffer(KeyPackageOffer(keyPackageBytes: bytes)), to: record.feedID)
    }

    /// A fresh KeyPackage for `record`, its private keys kept sealed here; returns its TLS encoding.
    func makeKeyPackageBlocking(for record: ContactRecord) throws(KithError) -> [UInt8] {
        try makeKeyPackageBlocking(recipient: record.feedID)
    }

    /// A fresh KeyPackage made for `recipient` (a contact, or an invite's creator met only through the invite); its
    /// private keys stay here, sealed.
    func makeKeyPackageBlocking(recipient: FeedID) throws(KithError) -> [UInt8] {
        let made = try generateKeyPackage()
        try withGroupStore { access throws(KithError) in
            try self.groupStoreCall(access.saveOwnKeyPackage(reference: made.reference, recipient: recipient.string, keyPackage: made.bytes, secrets: made.secrets))
        }
        return made.bytes
    }

    /// A fresh KeyPackage of this identity, not stored yet: its reference (base64url), TLS encoding and encoded
    /// private keys.
    func generateKeyPackage() throws(KithError) -> (reference: String, bytes: [UInt8], secrets: [UInt8]) {
        let identityKey = try originalIdentityKey()
        do throws(GroupError) {
            let made = try GroupKeyPackage.generate(for: feedID, identityKey: identityKey, now: groupClock())
            let reference = try GroupKeyPackage.reference(made.keyPackage)
            return (Base64URL.encode(reference), made.keyPackage.tlsEncoded, GroupKeyPackage.encode(made.secrets))
        } catch {
            throw .group(error)
        }
    }

    // MARK: Membership

    /// One commit adding `records`, each with one of their KeyPackages (taken in the commit's transaction).
    private func commitAdding(_ records: [ContactRecord], to id: GroupID) throws(KithError) {
        try self.commitToGroup(id) { membership, access throws(KithError) in
            var keyPackages: [KeyPackage] = []
            for record in records {
                guard let bytes = try self.groupStoreCall(access.takePeerKeyPackage(of: record.feedID.string)) else {
                    throw .group(.noKeyPackage(name: record.shownName, record.feedID))
                }
                do throws(GroupError) {
                    let keyPackage = try GroupKeyPackage.decode(bytes)
                    try GroupKeyPackage.check(keyPackage, owner: record.feedID)
                    keyPackages.append(keyPackage)
                } catch {
                    throw .group(error)
                }
            }
            do throws(GroupError) { return try membership.commit(adding: keyPackages) } catch { throw .group(error) }
        }
    }

    // MARK: Sending

    func sendToGroupBlocking(_ id: GroupID, content: Content) throws(KithError) -> Envelope {
        guard content.isKnown else { throw .input(.invalid("\(content.type) cannot be sent to a group")) }
        let plaintext: [UInt8]
        do throws(FeedError) { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        return try sendToGroupBlocking(id, content: content, plaintext: plaintext)
    }

    /// Sends `plaintext`, the exact bytes of `content` (they may carry fields beyond its typed form, such as
    /// attachment keys), to the group.
    func sendToGroupBlocking(_ id: GroupID, content: Content, plaintext: [UInt8]) throws(KithError) -> Envelope {
        // The receiving side's rule (Account.notInGroups), applied before anything is sealed.
        guard content.isKnown, !Self.notInGroups.contains(content.type) else {
            throw .input(.invalid("\(content.type) cannot be sent to a group"))
        }
        return try appendGroupMessage(id, plaintext: plaintext, type: content.type) { membership throws(KithError) in
            do throws(GroupError) { return try membership.encrypt(plaintext).tlsEncoded } catch { throw .group(error) }
        }
    }
}

extension Account {
    /// The key whose SHA-256 is this feed's id (the current key until the first rotation).
    func originalIdentityKey() throws(KithError) -> Curve25519.Signing.PublicKey {
        do throws(StoreError) {
            if let key = try store.identityKey(of: feedID) { return key }
        } catch {
            throw .store(error)
        }
        return identity.publicKeys.identityKey
    }

    /// Keeps a contact's KeyPackage offer when it is valid and names the contact (inside the direct message's
    /// transaction).
    static func acceptKeyPackage(_ offer: KeyPackageOffer, from peer: FeedID, access: GroupStoreAccess) throws {
        guard let keyPackage = try? GroupKeyPackage.decode(offer.keyPackageBytes), (try? GroupKeyPackage.check(keyPackage, owner: peer)) != nil,
              let reference = try? GroupKeyPackage.reference(keyPackage) else { return }
        try access.savePeerKeyPackage(reference: Base64URL.encode(reference), peer: peer.string, keyPackage: offer.keyPackageBytes)
    }
}

extension Account.Groups {
    /// Creates a group whose only member and committer is this identity.
    ///
    /// - Parameters:
    ///   - name: the group's name (1 to 128 bytes), shared with the members in the conversation metadata.
    ///   - explodeAt: when the conversation explodes (Unix seconds); see ``Account/Groups/explode(_:)``.
    public func create(name: String, explodeAt: Int64? = nil) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in try account.createGroupBlocking(name: name, explodeAt: explodeAt) }
    }

    /// Every group this identity was ever in, newest first. Groups past their explosion time explode first (their
    /// content is deleted, their status is `exploded`), whether or not a sync ran since.
    public func all() async throws(KithError) -> [GroupSummary] {
        try await BlockingWork.run { () throws(KithError) in
            try account.explodeDueGroups()
            let records = try account.readGroupStore { access in try access.groups() }
            var summaries: [GroupSummary] = []
            for record in records { summaries.append(try account.summary(record)) }
            return summaries
        }
    }

    /// One group.
    public func summary(_ id: GroupID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.explodeDueGroups()
            return try account.groupBlocking(id)
        }
    }

    /// Sets this identity's profile in the group's conversation metadata (its name as the group shows it; Convos'
    /// member profiles). The committer commits it at once; anyone else sends a `profile_update` to the group, which
    /// the committer merges into the metadata — changing that member's own entry and nothing else.
    @discardableResult
    public func setProfile(_ id: GroupID, displayName: String?) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            let membership = try account.withGroupStore { access throws(KithError) in try account.activeMembership(id, in: access).1 }
            if membership.isCommitter {
                let me = account.feedID
                try account.commitMetadataChange(id) { current throws(ConversationMetadataError) in
                    try current.updatingProfile(of: me, name: displayName, image: nil)
                }
            } else {
                _ = try account.sendToGroupBlocking(id, content: .profileUpdate(ProfileUpdate(displayName: displayName)))
            }
            return try account.groupBlocking(id)
        }
    }

    /// Finds a group by id, unique id prefix (at least 4 characters) or exact name.
    public func resolve(_ text: String) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.explodeDueGroups()
            let records = try account.readGroupStore { access in try access.groups() }
            if let exact = records.first(where: { $0.groupID == text }) { return try account.summary(exact) }
            let matches = records.filter { $0.name == text || (text.count >= 4 && $0.groupID.hasPrefix(text)) }
            guard matches.count == 1, let match = matches.first else {
                throw .group(matches.isEmpty ? .unknownGroup(text) : .ambiguousGroup(text))
            }
            return try account.summary(match)
        }
    }

    /// The group's messages (its audience, every member's feed), oldest first. A group past its explosion time explodes
    /// first: its messages come back without content.
    public func messages(_ id: GroupID, limit: Int = 100) async throws(KithError) -> [StoredMessage] {
        try await BlockingWork.run { () throws(KithError) in
            try account.explodeDueGroups()
            do throws(StoreError) { return try account.store.groupMessages(id.string, limit: limit) } catch { throw .store(error) }
        }
    }

    /// Hands a contact a fresh KeyPackage over the direct session (an `mls_key_package` message), so the contact can
    /// add this identity to groups. Its private keys stay here, sealed, until a Welcome uses them.
    @discardableResult
    public func shareKeyPackage(with contact: FeedID) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.shareKeyPackageBlocking(with: contact) }
    }

    /// A fresh KeyPackage for `contact` to carry away in person (file, NFC, QR code): base64url of its TLS encoding.
    /// Its private keys stay here, sealed, like those of ``Account/Groups/shareKeyPackage(with:)``. The KeyPackage is signed by its
    /// leaf key and names this feed and its identity key; `contact` checks both on import.
    public func keyPackageHandover(for contact: FeedID) async throws(KithError) -> String {
        try await BlockingWork.run { () throws(KithError) in
            Base64URL.encode(try account.makeKeyPackageBlocking(for: try account.contactRecordBlocking(contact)))
        }
    }

    /// Imports a KeyPackage `contact` handed over in person (``Account/Groups/keyPackageHandover(for:)`` on their device).
    ///
    /// - Throws: ``KithError/group(_:)`` when the text is not a KeyPackage of `contact` (wrong owner, identity key,
    ///   suite or signature, or larger than 4 KiB).
    public func importKeyPackage(_ text: String, from contact: FeedID) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.utf8.count <= (GroupKeyPackage.maxEncodedBytes + 2) / 3 * 4, let bytes = try? Base64URL.decode(trimmed) else {
                throw .group(.invalidKeyPackage("not base64url of at most \(GroupKeyPackage.maxEncodedBytes) bytes"))
            }
            let reference: [UInt8]
            do throws(GroupError) {
                let keyPackage = try GroupKeyPackage.decode(bytes)
                try GroupKeyPackage.check(keyPackage, owner: record.feedID)
                reference = try GroupKeyPackage.reference(keyPackage)
            } catch {
                throw .group(error)
            }
            try account.withGroupStore { access throws(KithError) in
                try account.groupStoreCall(access.savePeerKeyPackage(reference: Base64URL.encode(reference), peer: record.feedID.string, keyPackage: bytes))
            }
        }
    }

    /// How many KeyPackages of `contact` this identity holds (each adds the contact to one group).
    public func keyPackageCount(of contact: FeedID) async throws(KithError) -> Int {
        try await BlockingWork.run { () throws(KithError) in
            try account.readGroupStore { access in try access.peerKeyPackageCount(of: contact.string) }
        }
    }

    /// Adds contacts to a group (committer only), each with one of the KeyPackages they handed this identity. The
    /// commit goes into this feed as a `group_event`; each new member gets the Welcome as a direct message.
    @discardableResult
    public func add(_ id: GroupID, contacts: [FeedID]) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            guard !contacts.isEmpty else { throw .input(.invalid("name at least one contact to add")) }
            var records: [ContactRecord] = []
            for contact in contacts {
                let record = try account.contactRecordBlocking(contact)
                guard record.keyIsVerified else { throw .contacts(.unverified(name: record.shownName, record.feedID)) }
                records.append(record)
            }
            // One commit when it fits in a feed entry; otherwise the add is split in halves until each does.
            var pending = records[...]
            var chunk = pending.count
            while !pending.isEmpty {
                do throws(KithError) {
                    try account.commitAdding(Array(pending.prefix(chunk)), to: id)
                    pending = pending.dropFirst(chunk)
                    chunk = pending.count
                } catch .group(.handshakeTooLarge) where chunk > 1 {
                    chunk = (chunk + 1) / 2
                }
            }
            try account.flushWelcomes()
            return try account.groupBlocking(id)
        }
    }

    /// Adds a member again with a fresh KeyPackage, removing its old leaf in the same commit (committer only): for a
    /// member whose device lost the group's state (a restored identity, a damaged store). Its new device joins from
    /// the Welcome; its old leaf can no longer read.
    @discardableResult
    public func readd(_ id: GroupID, member: FeedID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(member)
            try account.commitToGroup(id) { membership, access throws(KithError) in
                guard let bytes = try account.groupStoreCall(access.takePeerKeyPackage(of: record.feedID.string)) else {
                    throw .group(.noKeyPackage(name: record.shownName, record.feedID))
                }
                do throws(GroupError) {
                    let keyPackage = try GroupKeyPackage.decode(bytes)
                    try GroupKeyPackage.check(keyPackage, owner: record.feedID)
                    return try membership.commit(adding: [keyPackage], removing: [record.feedID])
                } catch {
                    throw .group(error)
                }
            }
            try account.flushWelcomes()
            return try account.groupBlocking(id)
        }
    }

    /// Hands the committer role to another member (committer only): one commit changes the group's policy; from then
    /// on only `member` adds, removes and commits proposals, and this identity may leave.
    @discardableResult
    public func handOver(_ id: GroupID, to member: FeedID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) { return try membership.handOver(to: member) } catch { throw .group(error) }
            }
            return try account.groupBlocking(id)
        }
    }

    /// Removes a member (committer only).
    @discardableResult
    public func remove(_ id: GroupID, member: FeedID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) { return try membership.commit(removing: [member]) } catch { throw .group(error) }
            }
            return try account.groupBlocking(id)
        }
    }

    /// Refreshes this identity's keys in the group: a commit with a new path from the committer, an Update proposal
    /// from anyone else (the committer applies it on its next processing).
    @discardableResult
    public func updateKeys(_ id: GroupID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) { return try membership.updateKeys() } catch { throw .group(error) }
            }
            return try account.groupBlocking(id)
        }
    }

    /// Asks to leave the group: a proposal the committer commits (re-sent after each epoch until it does). The
    /// committer hands the role over first.
    @discardableResult
    public func leave(_ id: GroupID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            try account.commitToGroup(id) { membership, _ throws(KithError) in
                do throws(GroupError) { return try membership.leave() } catch { throw .group(error) }
            }
            return try account.groupBlocking(id)
        }
    }

    /// Sends text to the group: a `post` whose `content_enc` is an MLS PrivateMessage of the current epoch.
    @discardableResult
    public func send(_ id: GroupID, text: String) async throws(KithError) -> Envelope {
        try await send(id, content: .post(Post(body: text)))
    }

    /// Sends content to the group (audience `group:{id}`).
    @discardableResult
    public func send(_ id: GroupID, content: Content) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.sendToGroupBlocking(id, content: content) }
    }
}
