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
/// try await account.publishing.post("hello", audience: .selfOnly)
/// for message in try await account.feed.timeline() { print(message.content) }
/// ```
public final class Account: Sendable {
    /// The identity's current keys, replaced in place by ``Account/Rotation/rotate(reason:)``.
    struct KeyState: Sendable {
        /// The identity (private keys in memory only).
        var identity: Identity
        /// The seeds of rotated keys, after a rotation.
        var keySeeds: RotatedKeySeeds?
    }

    /// The current keys (written only by ``appendMaking(type:audience:rotatingTo:make:)`` under the store's write lock).
    let keyState: Mutex<KeyState>

    /// The identity with its current keys (private keys in memory only). After
    /// ``Account/Rotation/rotate(reason:)`` this is the rotated identity; the feed id never changes.
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
    /// Contacts keys derived by earlier imports.
    let contactsKeyCache = ContactsKeyCache()
    /// How many refused invite join requests each requester may cost this identity (docs/INVITES.md).
    let inviteJoinBudget = Mutex(JoinRequestBudget())
    /// How many invite exchanges with strangers may run and start (docs/INVITES.md, "Joiners who never met the creator").
    let strangerExchangeGate = Mutex(StrangerExchangeGate())
    /// Whether this account is handing its identity to a new device, or did (`Account.moveSend(to:…)`).
    let moveState = Mutex(AccountMoveState.idle)
    /// Restored group states by group id, with the store version they were saved as: a pass reuses one while the
    /// store's version still matches (filled only after the transaction that saved it commits).
    let groupStates = Mutex<[String: (version: Int64, membership: GroupMembership)]>([:])

    /// What tests changed in this account's behaviour (``AccountTestingHooks/production`` outside tests).
    let testingHooks: AccountTestingHooks

    init(
        identity: Identity, deviceSeed: Seed, keySeeds: RotatedKeySeeds? = nil, store: FeedStore, home: AccountHome?,
        clock: @escaping @Sendable () -> Int64, testingHooks: AccountTestingHooks = .production
    ) throws(KithError) {
        self.testingHooks = testingHooks
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
        try refuseIfMovedAway(home)
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
        try refuseIfMovedAway(home)
        let vault = FileKeyVault(url: home.vaultURL, passphrase: passphrase)
        guard vault.containsSeed else { throw .vault(.vaultMissing(path: home.directory.path)) }
        let seed: Seed
        do throws(IdentityError) { seed = try vault.loadSeed() } catch { throw .vault(error) }
        let account = try openRotationAware(home: home, seed: seed, clock: clock)
        // Personas whose conversation exploded while the device was off go now (docs/GROUPS.md, section 6a). A damaged
        // persona index must not lock the person out of the main account: `account.personas` reports it instead.
        try? account.sweepPersonasBlocking()
        return account
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

    var decryptor: AccountDecryptor { AccountDecryptor(identity: identity, store: store, cache: contactsKeyCache) }

    /// A decryptor for an import: it reads the contacts' keys only for a batch that holds a `contacts` message of
    /// another feed (the ingest prepares it before each batch's transaction; see ``AccountDecryptor/prepare(for:)``).
    var deferredDecryptor: AccountDecryptor { AccountDecryptor(identity: identity, deferredStore: store, cache: contactsKeyCache) }
}
