import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// Rotating the account's own keys (spec 5.5, 4.3 "Key rotation").
///
/// A rotation draws a fresh random key seed, announces the new identity, dh and pq keys in a
/// `key_rotation` message to the contacts (signed, like the message itself, by the old identity
/// key: `previous_key_sig`), and from the next message on signs with the new key. The feed id
/// never changes. Contacts keys are re-derived with the fresh dh key, which is the spec's
/// 30-day contacts key rotation. One previous dh key is kept so posts contacts wrote before
/// they saw the rotation stay readable, and up to three retired generations so direct messages
/// written to them still open (`RotatedKeySeeds.maxRetiredGenerations`).
///
/// Crash safety: the new seeds are written to `keys-pending.sealed` before the announcement
/// and moved over `keys.sealed` after it is stored; opening a home finishes or discards a
/// rotation that was cut in between (finished exactly when the announcement is in the feed).
extension Account {
    /// How often the spec asks for a contacts key rotation (30 days), in seconds.
    public static let keyRotationInterval: Int64 = 30 * 24 * 3600

    func rotateKeysBlocking(reason: KeyRotationReason) throws(KithError) {
        let seeds = RotatedKeySeeds.rotating(keySeeds, to: Seed.generate())
        let rotated: Identity
        do throws(IdentityError) {
            rotated = try Identity(seed: deviceSeed, keySeeds: seeds)
        } catch {
            throw .identity(error)
        }
        if let home { try Self.writeSealed(seeds, deviceSeed: deviceSeed, to: home.pendingRotatedKeysURL) }
        let keys = rotated.publicKeys
        let signedBytes = Array(keys.identityKey.rawRepresentation) + Array(keys.dhKey.rawRepresentation) + Array(keys.pqKey.rawRepresentation)
        let signature: [UInt8]
        do { signature = try identity.sign(signedBytes) } catch { throw .identity(error) }
        let content = Content.keyRotation(KeyRotation(
            newIdentityKey: keys.identityKeyString, newDHKey: keys.dhKeyString, newPQKey: keys.pqKeyString,
            previousKeySignature: Base64URL.encode(signature), reason: reason.rawValue
        ))
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        let seal = try audienceSealer(plaintext, audience: .contacts)
        _ = try appendWithDirectState(
            plaintext: plaintext, type: content.type, audience: .contacts, rotatingTo: KeyState(identity: rotated, keySeeds: seeds)
        ) { slot throws(KithError) in try seal(slot.sequence) }
        if let home { try Self.commitPendingRotation(home) }
        try finishRotation()
    }

    // MARK: Opening

    /// Opens a home's identity with its rotated keys, finishing or discarding a rotation that a
    /// crash interrupted.
    static func openRotationAware(home: AccountHome, seed: Seed, clock: @escaping @Sendable () -> Int64) throws(KithError) -> Account {
        var seeds = try readSealed(home.rotatedKeysURL, deviceSeed: seed)
        var identity = try identity(seed: seed, seeds: seeds)
        let store: FeedStore
        do throws(StoreError) { store = try FeedStore(path: home.databaseURL.path, storageKey: identity.storageKey) } catch { throw .store(error) }
        var finish = false
        if let pending = try readSealed(home.pendingRotatedKeysURL, deviceSeed: seed) {
            let candidate = try Self.identity(seed: seed, seeds: pending)
            let rotations: [KeyRotationRecord]
            do throws(StoreError) { rotations = try store.keyRotations(feed: identity.feedID) } catch { throw .store(error) }
            let announced = rotations.contains {
                $0.verified && $0.newIdentityKey == candidate.publicKeys.identityKeyString
            }
            if announced {
                try commitPendingRotation(home)
                seeds = pending
                identity = candidate
                finish = true
            } else {
                try? FileManager.default.removeItem(at: home.pendingRotatedKeysURL)
            }
        }
        let account = try Account(identity: identity, deviceSeed: seed, keySeeds: seeds, store: store, home: home, clock: clock)
        // public.json is written last by `finishRotation`: when it does not name the current keys, a
        // crash cut a committed rotation before its contacts keys and public keys were rewritten.
        if finish || !account.publicKeysFileIsCurrent(home) { try account.finishRotation() }
        // The sweep on open: conversations whose explosion time passed while the device was off explode now, before
        // anything reads them (docs/GROUPS.md, section 6).
        try account.explodeDueGroups()
        return account
    }

    /// True when the home's public.json holds exactly this identity's current public keys.
    func publicKeysFileIsCurrent(_ home: AccountHome) -> Bool {
        if home.isPersona { return true }  // a persona has no public.json (docs/GROUPS.md, "Personas")
        guard let stored = try? Self.publicKeysBlocking(home: home) else { return false }
        return JSONValue.object(stored) == publicKeysJSON
    }

    // MARK: Helpers

    static func identity(seed: Seed, seeds: RotatedKeySeeds?) throws(KithError) -> Identity {
        do throws(IdentityError) {
            return try Identity(seed: seed, keySeeds: seeds)
        } catch {
            throw .identity(error)
        }
    }

    /// Re-derives every contact's contacts key with the current dh key and rewrites public.json.
    func finishRotation() throws(KithError) {
        let records: [ContactRecord]
        do throws(StoreError) { records = try store.contacts() } catch { throw .store(error) }
        for record in records {
            let key = try contactsKey(for: record)
            do throws(StoreError) { try store.updateContactsKey(record.feedID, key: key) } catch { throw .store(error) }
        }
        try writePublicKeys()
    }

    /// Writes public.json (feed id and current public keys) atomically.
    func writePublicKeys() throws(KithError) {
        guard let home, !home.isPersona else { return }
        do {
            try Data(CanonicalJSON.serialize(publicKeysJSON) + [0x0A]).write(to: home.publicKeysURL, options: .atomic)
        } catch {
            throw .fileSystem(path: home.publicKeysURL.path, reason: error.localizedDescription)
        }
    }

    static func writeSealed(_ seeds: RotatedKeySeeds, deviceSeed: Seed, to url: URL) throws(KithError) {
        let sealed: [UInt8]
        do throws(IdentityError) { sealed = try seeds.sealed(deviceSeed: deviceSeed) } catch { throw .vault(error) }
        do {
            try Data(sealed).write(to: url, options: .atomic)
        } catch {
            throw .fileSystem(path: url.path, reason: error.localizedDescription)
        }
    }

    static func readSealed(_ url: URL, deviceSeed: Seed) throws(KithError) -> RotatedKeySeeds? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do throws(IdentityError) {
            return try RotatedKeySeeds.open(Array(data), deviceSeed: deviceSeed, path: url.path)
        } catch {
            throw .vault(error)
        }
    }

    static func commitPendingRotation(_ home: AccountHome) throws(KithError) {
        do {
            // Not atomic, and need not be: a crash between the two steps leaves only the pending
            // file, which the next open commits (its announcement is already in the feed).
            if FileManager.default.fileExists(atPath: home.rotatedKeysURL.path) {
                try FileManager.default.removeItem(at: home.rotatedKeysURL)
            }
            try FileManager.default.moveItem(at: home.pendingRotatedKeysURL, to: home.rotatedKeysURL)
        } catch {
            throw .fileSystem(path: home.rotatedKeysURL.path, reason: error.localizedDescription)
        }
    }
}

extension Account.Rotation {
    /// Key rotations seen, with their verification state.
    public func records(feed: FeedID? = nil) async throws(KithError) -> [KeyRotationRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.keyRotations(feed: feed) } catch { throw .store(error) }
        }
    }

    /// Rotates the keys in place: after it returns, this account signs, seals and opens with the
    /// new keys (every task sharing it sees them at once), and contacts learn them from the
    /// `key_rotation` message on the account's feed.
    public func rotate(reason: KeyRotationReason = .scheduledRotation) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in try account.rotateKeysBlocking(reason: reason) }
    }

    /// True when the last rotation (or, without one, the feed's first message) is older than
    /// ``Account/keyRotationInterval``.
    public func isDue() async throws(KithError) -> Bool {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) {
                var since = try account.store.latestTimestamp(feed: account.feedID, type: "key_rotation")
                if since == nil { since = try account.store.earliestTimestamp(feed: account.feedID) }
                guard let since else { return false }
                return account.clock() - since >= Account.keyRotationInterval
            } catch {
                throw .store(error)
            }
        }
    }
}
