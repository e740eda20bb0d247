import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Synchronization

/// One identity and its local store: the object an app embeds.
///
/// ```swift
/// let account = try Account.create(home: home, passphrase: { "correct horse" })
/// try account.post("hello", audience: .selfOnly)
/// for message in try account.timeline() { print(message.content) }
/// ```
public final class Account: Sendable {
    /// The identity (private keys in memory only).
    public let identity: Identity
    /// The local store.
    public let store: FeedStore
    /// Where the account lives (nil for an in-memory account).
    public let home: AccountHome?
    let clock: @Sendable () -> Int64
    /// The device seed (kept to derive rotated identities; never stored in SQLite).
    let deviceSeed: Seed
    /// The seeds of rotated keys, after a rotation.
    let keySeeds: RotatedKeySeeds?

    init(
        identity: Identity, deviceSeed: Seed, keySeeds: RotatedKeySeeds? = nil, store: FeedStore, home: AccountHome?,
        clock: @escaping @Sendable () -> Int64
    ) throws(KithError) {
        self.identity = identity
        self.deviceSeed = deviceSeed
        self.keySeeds = keySeeds
        self.store = store
        self.home = home
        self.clock = clock
        do {
            try store.follow(identityKey: identity.originalIdentityKey, isLocal: true)
        } catch {
            throw .store(error)
        }
    }

    /// The account's feed id.
    public var feedID: FeedID { identity.feedID }

    /// Creates a new identity in `home`: a fresh seed sealed in the vault, an empty database.
    ///
    /// - Throws: ``KithError/identity(_:)`` with `vaultExists` when the home already has an identity.
    public static func create(
        home: AccountHome,
        scrypt: ScryptParameters = .interactive,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(KithError) -> Account {
        let vault = FileKeyVault(url: home.vaultURL, parameters: scrypt, passphrase: passphrase)
        do {
            guard !vault.containsSeed else { throw IdentityError.vaultExists(path: home.vaultURL.path) }
            let (identity, seed) = try Identity.generate()
            try vault.storeSeed(seed)
            let store = try FeedStore(path: home.databaseURL.path, storageKey: identity.storageKey)
            let account = try Account(identity: identity, deviceSeed: seed, store: store, home: home, clock: clock)
            try account.writePublicKeys()
            return account
        } catch {
            throw KithError.from(error)
        }
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
    public static func publicKeys(home: AccountHome) throws(KithError) -> JSONObject {
        guard let data = FileManager.default.contents(atPath: home.publicKeysURL.path) else {
            throw .identity(.vaultMissing(path: home.directory.path))
        }
        var bytes = Array(data)
        if bytes.last == 0x0A { bytes.removeLast() }
        guard let object = (try? CanonicalJSON.parse(bytes))?.objectValue else {
            throw .invalidInput("\(home.publicKeysURL.path) is damaged")
        }
        return object
    }

    /// Opens an existing home: unlocks the vault (wrong passphrase: error, nothing changed).
    public static func open(
        home: AccountHome,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(KithError) -> Account {
        let vault = FileKeyVault(url: home.vaultURL, passphrase: passphrase)
        guard vault.containsSeed else { throw .identity(.vaultMissing(path: home.directory.path)) }
        do {
            let seed = try vault.loadSeed()
            return try openRotationAware(home: home, seed: seed, clock: clock)
        } catch {
            throw KithError.from(error)
        }
    }

    /// An account that lives only in memory (tests, benchmarks, demos).
    public static func inMemory(seed: Seed = .generate(), clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) throws(KithError) -> Account {
        do {
            let identity = try Identity(seed: seed)
            return try Account(identity: identity, deviceSeed: seed, store: try FeedStore(path: nil, storageKey: identity.storageKey), home: nil, clock: clock)
        } catch {
            throw KithError.from(error)
        }
    }

    // MARK: Authoring

    /// Appends a message with the given content to the account's feed.
    ///
    /// `self` and `contacts` messages are sealed here; `direct:` messages go through the
    /// account's Double Ratchet session with that contact (see ``sendDirect(_:to:)``).
    @discardableResult
    public func publish(_ content: Content, audience: Audience) throws(KithError) -> Envelope {
        if case .direct(let peer) = audience { return try sendDirect(content, to: peer.string) }
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
    /// (``FeedStore/appendOwn(feed:_:)``) it takes the next sequence, seals with `seal(slot)`,
    /// signs, and stores the envelope with its plaintext (sealed at rest) and, for a self message,
    /// its signed stub. The sequence is assigned under SQLite's write lock, so concurrent callers —
    /// other threads, other `Account`s or other processes on the same home — never sign the same
    /// sequence (no fork) and never skip one (no gap).
    ///
    /// `seal` runs under the write lock: it must not use the store except through
    /// ``OwnAppendSlot/directState``; read what it needs beforehand.
    func appendWithDirectState(
        plaintext: [UInt8], type: String, audience: Audience, seal: (OwnAppendSlot) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        var written: Envelope?
        do {
            _ = try store.appendOwn(feed: feedID) { slot in
                let unsigned = UnsignedEnvelope(
                    sequence: slot.sequence, timestamp: clock(), previous: slot.previous, type: type, audience: audience, content: try seal(slot)
                )
                let envelope = try Envelope.sign(unsigned, with: identity)
                written = envelope
                return OwnAppendEntry(
                    entry: envelope.canonicalBytes, decryptor: KnownPlaintextDecryptor(messageID: envelope.messageID, plaintext: plaintext),
                    selfStub: audience == .selfOnly ? try SelfStub.sign(envelope, with: identity) : nil
                )
            }
        } catch {
            if case StoreError.feed(let error) = error { throw .feed(error) }
            throw KithError.from(error)
        }
        guard let written else { throw .invalidInput("the entry was not written") }
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
                do { return try SelfAudienceCipher.seal(plaintext, key: key, sequence: sequence, feedID: feedID) } catch { throw KithError.from(error) }
            }
        case .contacts:
            let keys = try contactsRecipientKeys(onlyTo: onlyTo)
            return { sequence throws(KithError) in
                do {
                    return try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: sequence, feedID: feedID)
                } catch {
                    throw KithError.invalidInput("\(error)")
                }
            }
        case .direct:
            throw .invalidInput("direct messages are sealed by the ratchet session (sendDirect)")
        case .group:
            throw .notYetSupported("group messages arrive with MLS groups")
        case .unknown(let text):
            throw .invalidInput("cannot encrypt for unknown audience '\(text)'")
        }
    }

    /// Posts text (spec 5.1).
    @discardableResult
    public func post(_ text: String, audience: Audience) throws(KithError) -> Envelope {
        try publish(.post(Post(body: text)), audience: audience)
    }

    // MARK: Reading

    /// Messages this account holds, newest first, decrypted where readable.
    public func timeline(feed: FeedID? = nil, limit: Int = 100) throws(KithError) -> [StoredMessage] {
        do { return try store.messages(feed: feed, limit: limit) } catch { throw .store(error) }
    }

    // MARK: Exchange

    /// The entries of a feed as canonical lines, oldest first (self messages as stubs unless
    /// `includeSelfContent` and the feed is this account's).
    public func exportFeed(_ feed: FeedID? = nil, includeSelfContent: Bool = false) throws(KithError) -> [[UInt8]] {
        let target = feed ?? feedID
        if target == feedID { try signMissingSelfStubs() }
        do {
            return try store.export(feed: target, forPeer: !(includeSelfContent && target == feedID))
        } catch {
            throw .store(error)
        }
    }

    /// Imports exported lines of a feed verified by `identityKey` (followed from now on).
    ///
    /// The lines are ingested in transactions of ``FeedStore/streamingBatchSize``, each durable
    /// once `progress` reports it; if one fails, the error is thrown and the reported ones stay.
    public func importFeed(lines: [[UInt8]], identityKey: Curve25519.Signing.PublicKey, progress: (IngestProgress) -> Void = { _ in }) throws(KithError) -> IngestReport {
        do {
            try store.follow(identityKey: identityKey)
            let report = try store.ingest(streaming: lines, decryptor: decryptor, progress: progress)
            try processDirectMessages()
            return report
        } catch {
            throw KithError.from(error)
        }
    }

    /// Signs the stubs that replicate in place of this account's self messages, for any that lack
    /// one (messages restored from a backup, or written before stubs were signed).
    public func signMissingSelfStubs() throws(KithError) {
        do {
            let missing = try store.selfMessagesLackingStubs(feed: feedID)
            guard !missing.isEmpty else { return }
            var stubs: [SelfStub] = []
            for envelope in missing { stubs.append(try SelfStub.sign(envelope, with: identity)) }
            try store.saveOwnStubs(stubs)
        } catch {
            throw KithError.from(error)
        }
    }

    /// Runs garbage collection (spec 9.3).
    public func collectGarbage(_ policy: GCPolicy = GCPolicy()) throws(KithError) -> GCReport {
        do { return try store.collectGarbage(policy) } catch { throw .store(error) }
    }

    var decryptor: AccountDecryptor { AccountDecryptor(identity: identity, store: store) }
}
