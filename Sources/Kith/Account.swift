import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore
import Synchronization

/// One identity and its local store: the object an app embeds.
///
/// Every method that touches the store or the vault is `async`: its blocking work (SQLite
/// transactions, scrypt, file I/O) runs on a dedicated queue, off Swift's cooperative pool, so
/// it is safe to call from the main actor or any task. What happens to the account (messages
/// stored, direct messages opened, sync progress, a contact's keys rotated) arrives on
/// ``events()``.
///
/// ```swift
/// let account = try await Account.create(home: home, passphrase: { "correct horse" })
/// try await account.post("hello", audience: .selfOnly)
/// for message in try await account.timeline() { print(message.content) }
/// ```
public final class Account: Sendable {
    /// The identity's current keys, replaced in place by ``rotateKeys(reason:)``.
    struct KeyState: Sendable {
        /// The identity (private keys in memory only).
        var identity: Identity
        /// The seeds of rotated keys, after a rotation.
        var keySeeds: RotatedKeySeeds?
    }

    private let keyState: Mutex<KeyState>

    /// The identity with its current keys (private keys in memory only). After
    /// ``rotateKeys(reason:)`` this is the rotated identity; the feed id never changes.
    public var identity: Identity { keyState.withLock { $0.identity } }
    /// The local store (internal: apps use the account's methods; tests reach it with
    /// `@testable import Kith`).
    let store: FeedStore
    /// Where the account lives (nil for an in-memory account).
    public let home: AccountHome?
    let clock: @Sendable () -> Int64
    /// The device seed (kept to derive rotated identities; never stored in SQLite).
    let deviceSeed: Seed
    /// The seeds of rotated keys, after a rotation.
    var keySeeds: RotatedKeySeeds? { keyState.withLock { $0.keySeeds } }
    /// The subscribers of ``events()``.
    let hub = AccountEventHub()
    /// Test seam: when armed, the next group message processing fails right after storing a decrypted content and
    /// before the group state is saved (the transaction must then keep neither).
    let groupFaultAfterContent = Mutex(false)
    /// Contacts keys derived by earlier imports.
    let contactsKeyCache = ContactsKeyCache()
    /// Largest ratchet tree this account's commits put in a Welcome (``GroupWireMessage/maxInBandTreeBytes``; tests
    /// lower it to send small trees apart).
    let groupTreeInBandLimit = Mutex(GroupWireMessage.maxInBandTreeBytes)
    /// How many refused invite join requests each requester may cost this identity (docs/INVITES.md).
    let inviteJoinBudget = Mutex(JoinRequestBudget())
    /// How many invite exchanges with strangers may run and start (docs/INVITES.md, "Joiners who never met the creator").
    let strangerExchangeGate = Mutex(StrangerExchangeGate())
    /// Restored group states by group id, with the store version they were saved as: a pass reuses one while the
    /// store's version still matches (filled only after the transaction that saved it commits).
    let groupStates = Mutex<[String: (version: Int64, membership: GroupMembership)]>([:])

    init(
        identity: Identity, deviceSeed: Seed, keySeeds: RotatedKeySeeds? = nil, store: FeedStore, home: AccountHome?,
        clock: @escaping @Sendable () -> Int64
    ) throws(KithError) {
        self.keyState = Mutex(KeyState(identity: identity, keySeeds: keySeeds))
        self.deviceSeed = deviceSeed
        self.store = store
        self.home = home
        self.clock = clock
        do {
            try store.follow(identityKey: identity.originalIdentityKey, isLocal: true)
        } catch {
            throw .store(error)
        }
    }

    deinit { hub.finish() }

    /// The account's feed id.
    public var feedID: FeedID { identity.feedID }

    /// A stream of what happens to this account from now on: messages stored, direct messages
    /// opened, sync progress, contacts added or removed, a contact's keys rotated.
    ///
    /// Every call returns a new subscription that sees every later event; a subscriber that falls
    /// more than 256 events behind loses the oldest. The stream ends
    /// when the task iterating it is cancelled or the account is released.
    public func events() -> AsyncStream<AccountEvent> { hub.subscribe() }

    /// Creates a new identity in `home`: a fresh seed sealed in the vault, an empty database.
    ///
    /// - Throws: ``KithError/identity(_:)`` with `vaultExists` when the home already has an identity.
    public static func create(
        home: AccountHome,
        scrypt: ScryptParameters = .interactive,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> Account {
        try await BlockingWork.run { () throws(KithError) in try createBlocking(home: home, scrypt: scrypt, passphrase: passphrase, clock: clock) }
    }

    static func createBlocking(
        home: AccountHome, scrypt: ScryptParameters, passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64
    ) throws(KithError) -> Account {
        let vault = FileKeyVault(url: home.vaultURL, parameters: scrypt, passphrase: passphrase)
        guard !vault.containsSeed else { throw .vault(.vaultExists(path: home.vaultURL.path)) }
        let generated: (identity: Identity, seed: Seed)
        do throws(IdentityError) { generated = try Identity.generate() } catch { throw .identity(error) }
        do throws(IdentityError) { try vault.storeSeed(generated.seed) } catch { throw .vault(error) }
        let store: FeedStore
        do throws(StoreError) {
            store = try FeedStore(path: home.databaseURL.path, storageKey: generated.identity.storageKey)
        } catch {
            throw .store(error)
        }
        let account = try Account(identity: generated.identity, deviceSeed: generated.seed, store: store, home: home, clock: clock)
        try account.writePublicKeys()
        return account
    }

    /// The public keys as a JSON object: `feed_id`, `identity_key`, `dh_key`, `pq_key` (base64url).
    public var publicKeysJSON: JSONValue {
        let keys = identity.publicKeys
        var object = JSONObject()
        object["feed_id"] = .string(feedID.string)
        object["identity_key"] = .string(keys.identityKeyString)
        object["dh_key"] = .string(keys.dhKeyString)
        object["pq_key"] = .string(keys.pqKeyString)
        return .object(object)
    }

    /// Reads a home's public keys without unlocking the vault.
    public static func publicKeys(home: AccountHome) async throws(KithError) -> JSONObject {
        try await BlockingWork.run { () throws(KithError) in try publicKeysBlocking(home: home) }
    }

    static func publicKeysBlocking(home: AccountHome) throws(KithError) -> JSONObject {
        guard let data = FileManager.default.contents(atPath: home.publicKeysURL.path) else {
            throw .vault(.vaultMissing(path: home.directory.path))
        }
        var bytes = Array(data)
        if bytes.last == 0x0A { bytes.removeLast() }
        guard let object = (try? CanonicalJSON.parse(bytes))?.objectValue else {
            throw .input(.file(path: home.publicKeysURL.path, reason: "damaged (not the public keys JSON)"))
        }
        return object
    }

    /// Opens an existing home: unlocks the vault (wrong passphrase: error, nothing changed).
    public static func open(
        home: AccountHome,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> Account {
        try await BlockingWork.run { () throws(KithError) in try openBlocking(home: home, passphrase: passphrase, clock: clock) }
    }

    static func openBlocking(
        home: AccountHome, passphrase: @escaping @Sendable () throws(IdentityError) -> String, clock: @escaping @Sendable () -> Int64
    ) throws(KithError) -> Account {
        let vault = FileKeyVault(url: home.vaultURL, passphrase: passphrase)
        guard vault.containsSeed else { throw .vault(.vaultMissing(path: home.directory.path)) }
        let seed: Seed
        do throws(IdentityError) { seed = try vault.loadSeed() } catch { throw .vault(error) }
        return try openRotationAware(home: home, seed: seed, clock: clock)
    }

    /// An account that lives only in memory (tests, benchmarks, demos). Synchronous: it touches
    /// no file and no vault, only an empty in-memory database.
    public static func inMemory(seed: Seed = .generate(), clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) throws(KithError) -> Account {
        let identity: Identity
        do throws(IdentityError) { identity = try Identity(seed: seed) } catch { throw .identity(error) }
        let store: FeedStore
        do throws(StoreError) { store = try FeedStore(path: nil, storageKey: identity.storageKey) } catch { throw .store(error) }
        return try Account(identity: identity, deviceSeed: seed, store: store, home: nil, clock: clock)
    }

    // MARK: Authoring

    /// Appends a message with the given content to the account's feed.
    ///
    /// `self` and `contacts` messages are sealed here; `direct:` messages go through the
    /// account's Double Ratchet session with that contact (see `sendDirect(_:to:)`); `group:`
    /// messages through the group's MLS state (see `sendToGroup(_:content:)`).
    @discardableResult
    public func publish(_ content: Content, audience: Audience) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try self.publishBlocking(content, audience: audience) }
    }

    func publishBlocking(_ content: Content, audience: Audience) throws(KithError) -> Envelope {
        if case .direct(let peer) = audience { return try sendDirectBlocking(content, to: peer) }
        // Push tokens are for one contact: never in a feed-wide or group audience.
        if case .pushTokens = content { throw .input(.invalid("push_tokens content is direct only: hand tokens over with handOverPushTokens(_:to:expiresAt:)")) }
        if case .group(let text) = audience {
            let id: GroupID
            do throws(GroupError) { id = try GroupID(text) } catch { throw .group(error) }
            return try sendToGroupBlocking(id, content: content)
        }
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        let seal = try audienceSealer(plaintext, audience: audience)
        return try append(plaintext: plaintext, type: content.type, audience: audience, seal: seal)
    }

    /// Appends an entry whose content `seal(sequence)` encrypts for its slot (see
    /// ``appendWithDirectState(plaintext:type:audience:seal:)``).
    func append(
        plaintext: [UInt8], type: String, audience: Audience, seal: (UInt32) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        try appendWithDirectState(plaintext: plaintext, type: type, audience: audience) { slot throws(KithError) in
            try seal(slot.sequence)
        }
    }

    /// The one path that writes to the account's feed: in one write transaction of the store
    /// (`FeedStore.appendOwn(feed:_:)`) it takes the next sequence, seals with `seal(slot)`,
    /// signs, and stores the envelope with its plaintext (sealed at rest) and, for a self message,
    /// its signed stub. The sequence is assigned under SQLite's write lock, so concurrent callers —
    /// other threads, other `Account`s or other processes on the same home — never sign the same
    /// sequence (no fork) and never skip one (no gap).
    ///
    /// `seal` runs under the write lock: it must not use the store except through
    /// ``OwnAppendSlot/directState``; read what it needs beforehand.
    ///
    /// With `rotatingTo`, the account's keys are replaced by the rotated ones under the same write
    /// lock, right after this entry (the announcement, signed by the old key) is signed: the next
    /// append, from any task, signs with the new key. If the write fails, the old keys stay.
    func appendWithDirectState(
        plaintext: [UInt8], type: String, audience: Audience, rotatingTo rotation: KeyState? = nil,
        seal: (OwnAppendSlot) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        try appendMaking(type: type, audience: audience, rotatingTo: rotation) { slot throws(KithError) in (try seal(slot), plaintext) }
    }

    /// ``appendWithDirectState(plaintext:type:audience:rotatingTo:seal:)`` for content whose plaintext is only known
    /// under the write lock (a `group_event` carries the MLS message made there): `make` returns the sealed content
    /// and its plaintext.
    func appendMaking(
        type: String, audience: Audience, rotatingTo rotation: KeyState? = nil,
        make: (OwnAppendSlot) throws(KithError) -> (content: [UInt8], plaintext: [UInt8])
    ) throws(KithError) -> Envelope {
        var written: Envelope?
        var replaced: KeyState?
        do throws(OwnAppendError<KithError>) {
            _ = try store.appendOwn(feed: feedID) { (slot: OwnAppendSlot) throws(KithError) -> OwnAppendEntry in
                let made = try make(slot)
                let plaintext = made.plaintext
                let unsigned = UnsignedEnvelope(
                    sequence: slot.sequence, timestamp: clock(), previous: slot.previous, type: type, audience: audience, content: made.content
                )
                let signer = identity
                let envelope: Envelope
                let stub: SelfStub?
                do throws(FeedError) {
                    envelope = try Envelope.sign(unsigned, with: signer)
                    stub = audience == .selfOnly ? try SelfStub.sign(envelope, with: signer) : nil
                } catch {
                    throw .feed(error)
                }
                written = envelope
                let entry = OwnAppendEntry(
                    entry: envelope.canonicalBytes, decryptor: KnownPlaintextDecryptor(messageID: envelope.messageID, plaintext: plaintext),
                    selfStub: stub
                )
                if let rotation { replaced = keyState.withLock { state in defer { state = rotation }; return state } }
                return entry
            }
        } catch {
            if let replaced { keyState.withLock { $0 = replaced } }
            switch error {
            case .entry(let failure): throw failure
            case .store(.feed(let error)): throw .feed(error)
            case .store(let error): throw .store(error)
            }
        }
        guard let written else { throw .store(.database("the entry was not written")) }
        hub.emit(.messagesStored(feed: feedID, messages: [written.messageID]))
        return written
    }

    /// A sealing function for the `self` and `contacts` audiences. What it needs from the store
    /// (the contacts keys, refreshed) is read now, so it can run under the append's write lock.
    func audienceSealer(_ plaintext: [UInt8], audience: Audience, onlyTo: Set<FeedID>? = nil) throws(KithError) -> (UInt32) throws(KithError) -> [UInt8] {
        let feedID = feedID
        switch audience {
        case .selfOnly:
            let key = identity.journalKey
            return { sequence throws(KithError) in
                do throws(FeedError) { return try SelfAudienceCipher.seal(plaintext, key: key, sequence: sequence, feedID: feedID) } catch { throw .feed(error) }
            }
        case .contacts:
            let keys = try contactsRecipientKeys(onlyTo: onlyTo)
            return { sequence throws(KithError) in
                do throws(ContactsCipherError) {
                    return try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: sequence, feedID: feedID)
                } catch {
                    throw .contacts(.cipher(error))
                }
            }
        case .direct:
            throw .input(.invalid("direct messages are sealed by the ratchet session (sendDirect)"))
        case .group:
            throw .input(.invalid("group messages are sealed by the group's MLS state (sendToGroup)"))
        case .oneTime:
            throw .input(.invalid("one-time messages are sealed to the peer's pool (sendOneTime)"))
        case .unknown(let text):
            throw .input(.invalid("cannot encrypt for unknown audience '\(text)'"))
        }
    }

    /// Posts text (spec 5.1).
    @discardableResult
    public func post(_ text: String, audience: Audience) async throws(KithError) -> Envelope {
        try await publish(.post(Post(body: text)), audience: audience)
    }

    // MARK: Reading

    /// Messages this account holds, newest first, decrypted where readable.
    public func timeline(feed: FeedID? = nil, limit: Int = 100) async throws(KithError) -> [StoredMessage] {
        try await BlockingWork.run { () throws(KithError) in
            // Group messages are among them: a conversation past its explosion time explodes before anything is shown.
            try self.explodeDueGroups()
            do throws(StoreError) { return try self.store.messages(feed: feed, limit: limit) } catch { throw .store(error) }
        }
    }

    /// The sequence of the newest entry of `feed` linked into its chain here (nil: none held).
    public func headSequence(of feed: FeedID) async throws(KithError) -> UInt32? {
        try await BlockingWork.run { () throws(KithError) -> UInt32? in
            do throws(StoreError) { return try self.store.head(of: feed)?.sequence } catch { throw .store(error) }
        }
    }

    // MARK: Exchange

    /// The entries of a feed as canonical lines, oldest first (self messages as stubs unless
    /// `includeSelfContent` and the feed is this account's).
    public func exportFeed(_ feed: FeedID? = nil, includeSelfContent: Bool = false) async throws(KithError) -> [[UInt8]] {
        try await BlockingWork.run { () throws(KithError) in
            let target = feed ?? self.feedID
            if target == self.feedID { try self.signMissingSelfStubsBlocking() }
            do throws(StoreError) {
                return try self.store.export(feed: target, forPeer: !(includeSelfContent && target == self.feedID))
            } catch {
                throw .store(error)
            }
        }
    }

    /// Imports exported lines of a feed verified by `identityKey` (followed from now on).
    ///
    /// The lines are ingested in transactions of `FeedStore.streamingBatchSize`, each durable
    /// once `progress` reports it; if one fails, the error is thrown and the reported ones stay.
    public func importFeed(
        lines: [[UInt8]], identityKey: Curve25519.Signing.PublicKey, progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }
    ) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in try self.importFeedBlocking(lines: lines, identityKey: identityKey, progress: progress) }
    }

    func importFeedBlocking(
        lines: [[UInt8]], identityKey: Curve25519.Signing.PublicKey, followed: Bool = false, progress: (IngestProgress) -> Void
    ) throws(KithError) -> IngestReport {
        if !followed {
            do {
                try store.follow(identityKey: identityKey)
            } catch {
                throw .store(error)
            }
        }
        let decryptor = deferredDecryptor
        let report = try announcingIngest(of: FeedID(identityKey: identityKey)) { () throws(KithError) in
            do throws(StoreError) { return try store.ingest(streaming: lines, decryptor: decryptor, progress: progress) } catch { throw .store(error) }
        }
        try processAfterImportBlocking()
        return report
    }

    /// The passes every import runs after its ingest — direct messages (then groups), one-time messages — each only
    /// when one read (``FeedStore/pendingPasses(local:now:)``) finds work for it: a pass with nothing to do would open
    /// its transaction, find nothing and change nothing.
    func processAfterImportBlocking() throws(KithError) {
        let passes: PendingPasses
        do throws(StoreError) { passes = try store.pendingPasses(local: feedID, now: clock()) } catch { throw .store(error) }
        if passes.directMessages {
            // Opening direct messages may bring Welcomes and invite messages: the group pass then runs in full.
            try processDirectMessagesBlocking()
        } else if passes.anyGroupWork {
            try processGroupMessagesBlocking(passes: passes)
        }
        if passes.oneTimeMessages { try processOneTimeMessagesBlocking() }
    }

    /// Runs an ingest into `feed` and emits what it stored: ``AccountEvent/messagesStored(feed:messages:)``
    /// with the new messages, and ``AccountEvent/keysRotated(_:)`` when a verified key rotation
    /// arrived with them.
    func announcingIngest(of feed: FeedID, _ ingest: () throws(KithError) -> IngestReport) throws(KithError) -> IngestReport {
        let report = try ingest()
        var stored: [MessageID] = []
        for outcome in report.outcomes { if case .stored(let id, _) = outcome { stored.append(id) } }
        stored += report.promoted
        guard !stored.isEmpty else { return report }
        hub.emit(.messagesStored(feed: feed, messages: stored))
        if try verifiedRotationLinked(report, of: feed) { hub.emit(.keysRotated(feed)) }
        return report
    }

    /// Whether this ingest linked a key rotation of `feed` that verified. Rotations are recorded (verified or not)
    /// only when their message is linked, so a verified record at a sequence this ingest linked is a new one; an
    /// ingest that linked no `key_rotation` reads nothing.
    private func verifiedRotationLinked(_ report: IngestReport, of feed: FeedID) throws(KithError) -> Bool {
        let sequences = Set(report.linked.filter { $0.feedID == feed && $0.type == ChainRules.keyRotationType }.map(\.sequence))
        guard !sequences.isEmpty else { return false }
        let rotations: [KeyRotationRecord]
        do throws(StoreError) { rotations = try store.keyRotations(feed: feed) } catch { throw .store(error) }
        return rotations.contains { $0.verified && sequences.contains($0.sequence) }
    }

    /// Signs the stubs that replicate in place of this account's self messages, for any that lack
    /// one (messages restored from a backup, or written before stubs were signed).
    public func signMissingSelfStubs() async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in try self.signMissingSelfStubsBlocking() }
    }

    func signMissingSelfStubsBlocking() throws(KithError) {
        let missing: [Envelope]
        do throws(StoreError) { missing = try store.selfMessagesLackingStubs(feed: feedID) } catch { throw .store(error) }
        guard !missing.isEmpty else { return }
        var stubs: [SelfStub] = []
        let signer = identity
        do throws(FeedError) {
            for envelope in missing { stubs.append(try SelfStub.sign(envelope, with: signer)) }
        } catch {
            throw .feed(error)
        }
        do throws(StoreError) { try store.saveOwnStubs(stubs) } catch { throw .store(error) }
    }

    /// Runs garbage collection (spec 9.3).
    public func collectGarbage(_ policy: GCPolicy = GCPolicy()) async throws(KithError) -> GCReport {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.collectGarbage(policy) } catch { throw .store(error) }
        }
    }

    var decryptor: AccountDecryptor { AccountDecryptor(identity: identity, store: store, cache: contactsKeyCache) }

    /// A decryptor for an import: it reads the contacts' keys only for a batch that holds a `contacts` message of
    /// another feed (the ingest prepares it before each batch's transaction; see ``AccountDecryptor/prepare(for:)``).
    var deferredDecryptor: AccountDecryptor { AccountDecryptor(identity: identity, deferredStore: store, cache: contactsKeyCache) }
}
