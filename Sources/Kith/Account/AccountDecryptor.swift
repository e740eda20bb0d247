import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Synchronization

/// Decrypts what the local identity may read: its own `self` messages, and `contacts` messages
/// of its own feed (self slot) and of its contacts (pairwise contacts keys).
///
/// Built before an ingest from a snapshot of the contacts' dh keys (the store must not be read
/// during its own write transaction). Contacts keys are derived lazily and cached (in the account's
/// ``ContactsKeyCache`` when it has one, so later imports reuse them). When it opens
/// a contact's verified key_rotation, it learns the new dh key at once, so later messages of the
/// same batch stay readable.
final class AccountDecryptor: ContentDecryptor {
    struct State {
        /// Every dh key (base64url) each contact used, newest first.
        var dhKeys: [FeedID: [String]]
        /// The identity key (base64url) each contact currently signs with (for rotation checks).
        var identityKeys: [FeedID: String]
    }

    let identity: Identity
    let selfSlotKey: SymmetricKey
    private let state: Mutex<State>
    private let cache: ContactsKeyCache
    /// For a deferred decryptor: the store whose contacts' keys ``prepare(for:)`` reads, until it has.
    private let deferredStore: Mutex<FeedStore?>

    /// A decryptor without contacts (own messages only).
    convenience init(identity: Identity) {
        self.init(identity: identity, dhKeys: [:], identityKeys: [:])
    }

    /// A decryptor that knows the store's contacts.
    convenience init(identity: Identity, store: FeedStore, cache: ContactsKeyCache = ContactsKeyCache()) {
        self.init(
            identity: identity, dhKeys: (try? store.contactDHKeys()) ?? [:], identityKeys: (try? store.contactIdentityKeys()) ?? [:], cache: cache
        )
    }

    /// A decryptor that reads the store's contacts only when an ingest batch needs them (``prepare(for:)``): most
    /// imports (a group message, a direct message, the author's own feed) hold no `contacts` message of another feed.
    init(identity: Identity, deferredStore store: FeedStore, cache: ContactsKeyCache = ContactsKeyCache()) {
        self.identity = identity
        selfSlotKey = ContactsKey.selfSlotKey(journalKey: identity.journalKey)
        state = Mutex(State(dhKeys: [:], identityKeys: [:]))
        self.cache = cache
        deferredStore = Mutex(store)
    }

    init(identity: Identity, dhKeys: [FeedID: [String]], identityKeys: [FeedID: String], cache: ContactsKeyCache = ContactsKeyCache()) {
        self.identity = identity
        selfSlotKey = ContactsKey.selfSlotKey(journalKey: identity.journalKey)
        state = Mutex(State(dhKeys: dhKeys, identityKeys: identityKeys))
        self.cache = cache
        deferredStore = Mutex(nil)
    }

    /// A deferred decryptor reads the contacts' keys before the first batch that holds a `contacts` message of
    /// another feed (or whose envelopes are not known); once read, they are kept, and learn rotations as before.
    func prepare(for envelopes: [Envelope]?) {
        let own = identity.feedID
        if let envelopes, !envelopes.contains(where: { $0.audience == .contacts && $0.feedID != own }) { return }
        guard let store = deferredStore.withLock({ slot in defer { slot = nil }; return slot }) else { return }
        let dhKeys = (try? store.contactDHKeys()) ?? [:]
        let identityKeys = (try? store.contactIdentityKeys()) ?? [:]
        state.withLock { $0 = State(dhKeys: dhKeys, identityKeys: identityKeys) }
    }

    func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? {
        switch envelope.audience {
        case .selfOnly:
            guard envelope.feedID == identity.feedID else { return nil }
            return try SelfAudienceCipher.open(try envelope.contentBytes(), key: identity.journalKey, sequence: envelope.sequence, feedID: envelope.feedID)
        case .contacts:
            let keys = envelope.feedID == identity.feedID ? [selfSlotKey] : contactsKeys(for: envelope.feedID)
            guard !keys.isEmpty else { return nil }
            let sealed = try envelope.contentBytes()
            let plaintext: [UInt8]
            do throws(ContactsCipherError) {
                plaintext = try ContactsAudienceCipher.open(sealed, keys: keys, sequence: envelope.sequence, feedID: envelope.feedID)
            } catch {
                if error == .notARecipient { return nil }
                throw .decryptionFailed(error.description)
            }
            if envelope.type == "key_rotation" { observeRotation(plaintext, of: envelope.feedID) }
            return plaintext
        default:
            return nil
        }
    }

    /// The contacts keys this identity shares with `feed`: every dh key the contact used (newest
    /// first) with this identity's current dh key, then with the previous one after a rotation
    /// (for posts written before the contact saw it).
    func contactsKeys(for feed: FeedID) -> [SymmetricKey] {
        let mine = [identity.dhKey] + (identity.previousDHKey.map { [$0] } ?? [])
        let theirs = state.withLock { $0.dhKeys[feed] ?? [] }
        var keys: [SymmetricKey] = []
        for myKey in mine {
            let myPublic = Base64URL.encode(myKey.publicKey.rawRepresentation)
            for dh in theirs {
                let derived = cache.key(myPublic + "/" + feed.string + "/" + dh) {
                    guard let raw = try? Base64URL.decode(dh, expectedLength: 32),
                          let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw) else { return nil }
                    return try? ContactsKey.derive(myDHKey: myKey, theirDHKey: publicKey, myFeed: identity.feedID, theirFeed: feed)
                }
                if let derived { keys.append(derived) }
            }
        }
        return keys
    }

    private func observeRotation(_ plaintext: [UInt8], of feed: FeedID) {
        guard case .keyRotation(let rotation)? = try? Content.parse(plaintext, envelopeType: "key_rotation") else { return }
        state.withLock { state in
            guard let oldText = state.identityKeys[feed], let oldKey = try? PublicKeys.identityKey(storedBase64URL: oldText),
                  KeyRotationVerifier.isVerified(rotation, oldIdentityKey: oldKey) else { return }
            state.identityKeys[feed] = rotation.newIdentityKey
            state.dhKeys[feed, default: []].removeAll { $0 == rotation.newDHKey }
            state.dhKeys[feed, default: []].insert(rotation.newDHKey, at: 0)
        }
    }
}
