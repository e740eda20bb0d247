import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore

/// Publishing: posts (with attachments), reactions, profile updates, retractions and blobs, and the one
/// dispatcher that sends content to its audience.
extension Account {
    // MARK: Authoring

    func publishBlocking(_ content: Content, audience: Audience) throws(KithError) -> Envelope {
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        return try send(content, plaintext: plaintext, audience: audience)
    }

    /// The one audience dispatcher: every send path that takes an audience (``Account/Publishing/publish(_:audience:)``, the posts,
    /// reactions, retractions, profile updates and introductions) hands its content here.
    ///
    /// `direct:` goes through the Double Ratchet session with that contact, `group:` through the group's MLS state,
    /// `self` and `contacts` are sealed for the feed. `plaintext` is the content's exact bytes (it may carry fields
    /// beyond `content`'s typed form, such as attachment keys); `onlyTo` narrows a `contacts` message to some contacts.
    func send(_ content: Content, plaintext: [UInt8], audience: Audience, onlyTo: Set<FeedID>? = nil) throws(KithError) -> Envelope {
        if case .direct(let peer) = audience {
            var refill = true
            if case .prekeyBatch = content { refill = false }
            return try sendDirectBlocking(plaintext: plaintext, type: content.type, to: peer, refill: refill)
        }
        // Push tokens are for one contact: never in a feed-wide or group audience.
        if case .pushTokens = content { throw .input(.invalid("push_tokens content is direct only: hand tokens over with push.handOverTokens(_:to:expiresAt:)")) }
        // Recovery shares are for one guardian: never in a feed-wide or group audience.
        if case .recoveryShare = content { throw .input(.invalid("recovery_share content is direct only: hand shares over with recovery.setup(threshold:guardians:)")) }
        if case .recoveryRevocation = content { throw .input(.invalid("recovery_revoke content is direct only: revoke with recovery.revoke()")) }
        if case .group(let text) = audience {
            let id: GroupID
            do throws(GroupError) { id = try GroupID(text) } catch { throw .group(error) }
            return try sendToGroupBlocking(id, content: content, plaintext: plaintext)
        }
        let seal = try audienceSealer(plaintext, audience: audience, onlyTo: onlyTo)
        return try append(plaintext: plaintext, type: content.type, audience: audience, seal: seal)
    }

    func postBlocking(_ text: String, audience: Audience, attachments: [[UInt8]]) throws(KithError) -> Envelope {
        guard attachments.count <= FeedLimits.maxAttachments else {
            throw .input(.invalid("\(attachments.count) attachments; at most \(FeedLimits.maxAttachments)"))
        }
        if attachments.isEmpty { return try publishBlocking(.post(Post(body: text)), audience: audience) }
        var hashes: [JSONValue] = []
        var keys: [JSONValue] = []
        for data in attachments {
            let sealed = try storeSealedBlob(data)
            hashes.append(.string(sealed.contentHash))
            keys.append(.string(sealed.key))
        }
        var object = Content.post(Post(body: text)).jsonObject
        object["attachments"] = .array(hashes)
        object["attachment_keys"] = .array(keys)
        return try send(object: object, audience: audience)
    }

    func attachmentBlocking(of message: MessageID, index: Int) throws(KithError) -> [UInt8] {
        let object: JSONObject?
        do throws(StoreError) { object = try store.contentObject(message) } catch { throw .store(error) }
        guard let object,
              let hashes = object["attachments"]?.arrayValue, let keys = object["attachment_keys"]?.arrayValue,
              index >= 0, index < hashes.count, index < keys.count,
              let hash = hashes[index].stringValue, let key = keys[index].stringValue else {
            throw .input(.invalid("message \(message) has no readable attachment \(index)"))
        }
        let blob: [UInt8]?
        do throws(StoreError) { blob = try store.blob(hash) } catch { throw .store(error) }
        guard let blob else { throw .input(.invalid("attachment \(hash) is not held here yet")) }
        do throws(ContactsCipherError) {
            return try BlobCipher.open(blob, contentHash: hash, key: key)
        } catch {
            throw .contacts(.cipher(error))
        }
    }

    func setProfileBlocking(displayName: String?, avatar: [UInt8]?) throws(KithError) -> Envelope {
        var object = Content.profileUpdate(ProfileUpdate(displayName: displayName)).jsonObject
        if let avatar {
            let sealed = try storeSealedBlob(avatar)
            object["avatar_hash"] = .string(sealed.contentHash)
            object["avatar_key"] = .string(sealed.key)
        }
        return try send(object: object, audience: .contacts)
    }

    func deleteBlocking(_ target: MessageID, reason: RetractionReason?) throws(KithError) -> Envelope {
        let held: StoredMessage?
        do throws(StoreError) { held = try store.message(target) } catch { throw .store(error) }
        guard let held, held.feedID == feedID else { throw .input(.invalid("message \(target) is not one of yours")) }
        let audience = (try? Audience(held.audience)) ?? .contacts
        let useAudience: Audience = audience == .selfOnly ? .selfOnly : .contacts
        return try publishBlocking(.tombstone(Tombstone(targetMessage: target, reason: reason?.rawValue)), audience: useAudience)
    }

    /// Encrypts an attachment or avatar under its own key and stores the blob.
    func storeSealedBlob(_ data: [UInt8]) throws(KithError) -> BlobCipher.Sealed {
        let sealed: BlobCipher.Sealed
        do throws(ContactsCipherError) { sealed = try BlobCipher.seal(data) } catch { throw .contacts(.cipher(error)) }
        do throws(StoreError) { _ = try store.putBlob(sealed.blob) } catch { throw .store(error) }
        return sealed
    }

    /// Publishes a content object that may carry fields beyond its typed form (attachment keys).
    /// The object must parse as valid content of its type.
    func send(object: JSONObject, audience: Audience, onlyTo: Set<FeedID>? = nil) throws(KithError) -> Envelope {
        let plaintext = CanonicalJSON.serialize(object)
        guard let type = object["type"]?.stringValue else { throw .input(.invalid("content has no type")) }
        guard plaintext.count <= FeedLimits.maxContentJSONBytes else { throw .input(.invalid("content too large")) }
        let content: Content
        do throws(FeedError) { content = try Content.parse(plaintext, envelopeType: type) } catch { throw .feed(error) }
        return try send(content, plaintext: plaintext, audience: audience, onlyTo: onlyTo)
    }
}

extension Account.Publishing {
    /// The latest profile this account published, if any.
    public func ownProfile() async throws(KithError) -> ProfileUpdate? {
        try await BlockingWork.run { () throws(KithError) in try account.ownProfileBlocking() }
    }

    /// Appends a message with the given content to the account's feed.
    ///
    /// `self` and `contacts` messages are sealed here; `direct:` messages go through the
    /// account's Double Ratchet session with that contact (see `sendDirect(_:to:)`); `group:`
    /// messages through the group's MLS state (see `sendToGroup(_:content:)`).
    @discardableResult
    public func publish(_ content: Content, audience: Audience) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.publishBlocking(content, audience: audience) }
    }

    /// Posts text (spec 5.1).
    @discardableResult
    public func post(_ text: String, audience: Audience) async throws(KithError) -> Envelope {
        try await publish(.post(Post(body: text)), audience: audience)
    }

    /// Posts text with encrypted attachments (at most 4). Each attachment is encrypted under its
    /// own key and stored as a blob; the post lists the blob hashes in `attachments` and their
    /// keys in `attachment_keys`.
    @discardableResult
    public func post(_ text: String, audience: Audience, attachments: [[UInt8]]) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.postBlocking(text, audience: audience, attachments: attachments) }
    }

    /// Decrypts attachment `index` of a readable post held here.
    public func attachment(of message: MessageID, index: Int) async throws(KithError) -> [UInt8] {
        try await BlockingWork.run { () throws(KithError) in try account.attachmentBlocking(of: message, index: index) }
    }

    /// Reacts to a message (spec 5.2), for the contacts audience by default.
    @discardableResult
    public func react(to target: MessageID, emoji: String, audience: Audience = .contacts) async throws(KithError) -> Envelope {
        guard Reaction.isSingleEmoji(emoji) else { throw .input(.invalid("'\(emoji)' is not a single emoji")) }
        return try await publish(.reaction(Reaction(targetMessage: target, emoji: emoji)), audience: audience)
    }

    /// Publishes a profile update (spec 5.3) to contacts; an avatar is stored as an encrypted blob.
    @discardableResult
    public func setProfile(displayName: String?, avatar: [UInt8]? = nil) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.setProfileBlocking(displayName: displayName, avatar: avatar) }
    }

    /// Retracts one of this account's messages (spec 5.7) with a tombstone in the same audience.
    @discardableResult
    public func delete(_ target: MessageID, reason: RetractionReason? = .retracted) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.deleteBlocking(target, reason: reason) }
    }

    /// Every encrypted blob held here, for handing to a peer with the feed (they are useless
    /// without the keys inside the posts that reference them).
    public func exportBlobs() async throws(KithError) -> [[UInt8]] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) {
                var blobs: [[UInt8]] = []
                for hash in try account.store.blobHashes() {
                    if let blob = try account.store.blob(hash) { blobs.append(blob) }
                }
                return blobs
            } catch {
                throw .store(error)
            }
        }
    }

    /// Stores a blob received from a peer (kept by content hash; unreferenced ones are collected).
    @discardableResult
    public func importBlob(_ blob: [UInt8]) async throws(KithError) -> String {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.putBlob(blob) } catch { throw .store(error) }
        }
    }
}
