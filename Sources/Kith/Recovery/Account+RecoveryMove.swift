import Foundation
import KithContinuity
import KithIdentity

/// What `Account.Recovery.move(_:into:…)` did: the new home's account, the restore (when a backup was at hand) and
/// whether the `device_migration` rotation was published.
public struct RecoveryMove: Sendable {
    /// The rebuilt identity's account in its new home.
    public let account: Account
    /// What the backup restore carried, nil when no backup was given.
    public let restore: RestoreReport?
    /// True when the verified `key_rotation` (reason `device_migration`) was published.
    public let rotated: Bool
}

/// The move to a new device after recovery through contacts (docs/CONTINUITY.md, "After the rebuild").
extension Account.Recovery {
    /// Writes a rebuilt identity's new home and moves it there.
    ///
    /// With a backup (of the same feed: another identity's is refused) the home is restored from it and, unless
    /// `rotate` is false, a `key_rotation` with reason `device_migration` is published at once: it is signed by the
    /// old identity key, so contacts accept it as verified. The backup opens with `backupSecret`, or, when that is
    /// nil, with the backup recovery key the guardian set carried.
    ///
    /// Without a backup the home holds only the identity and knows nothing of its own feed: it refuses every append,
    /// a rotation included (`ContinuityError.recoveredHeadUnknown`), until a sync with a contact brought the feed
    /// back. Unless `rotate` is false, the sync that does (`SyncAgent`, through `completeMove()`) then publishes the
    /// `device_migration` rotation; add the contacts' cards first, as it is sealed to the contacts known then.
    ///
    /// Either way the keys (or, after the rotation, the old keys) the guardian set holds are stale: make a new set
    /// with `setup` from the new home.
    ///
    /// - Parameters:
    ///   - recovered: what `rebuild(from:)` returned.
    ///   - home: the new home; it must be empty or absent.
    ///   - backup: the latest backup file, if one is at hand.
    ///   - backupSecret: what opens it; nil to use the recovery key carried in the set.
    ///   - rotate: false to skip the `device_migration` rotation (after a restore, or once the feed is known).
    ///   - scrypt: the cost of the new vault's passphrase key.
    ///   - passphrase: asked once, for the new vault.
    ///   - clock: seconds since 1970, for the new account.
    /// - Throws: `KithError.input` when a backup is given but nothing opens it, `.continuity` for a non-empty home
    ///   or a backup of another identity, and the restore's and rotation's errors.
    public static func move(
        _ recovered: RecoveredIdentity, into home: AccountHome, backup: URL? = nil, backupSecret: BackupSecret? = nil,
        rotate: Bool = true, scrypt: ScryptParameters = .interactive,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> RecoveryMove {
        guard let backup else {
            let account = try await BlockingWork.run { () throws(KithError) in
                try Account.writeRecoveredHomeBlocking(recovered, into: home, rotateWhenKnown: rotate, scrypt: scrypt,
                                                       passphrase: passphrase, clock: clock)
            }
            return RecoveryMove(account: account, restore: nil, rotated: false)
        }
        guard let secret = backupSecret ?? recovered.backupKey.map(BackupSecret.recoveryKey) else {
            throw .input(.invalid("the guardian set carried no backup key: give the backup's recovery key (--key-file) or passphrase (KITH_BACKUP_PASSPHRASE)"))
        }
        let (account, report) = try await Account.restore(
            from: backup, secret: secret, home: home, expectedFeedID: recovered.identity.feedID, scrypt: scrypt,
            passphrase: passphrase, clock: clock)
        guard rotate else { return RecoveryMove(account: account, restore: report, rotated: false) }
        try await account.rotation.rotate(reason: .deviceMigration)
        return RecoveryMove(account: account, restore: report, rotated: true)
    }
}

extension Account.Recovery {
    /// Finishes the move of a home rebuilt without a backup: once a sync brought its own feed back, publishes the
    /// `device_migration` rotation (signed by the old key) that `move` deferred. Does nothing, and returns false, for
    /// any other home, before the feed is known, or when `move` was told not to rotate. `SyncAgent` calls it after
    /// every session.
    @discardableResult
    public func completeMove() async throws(KithError) -> Bool {
        try await BlockingWork.run { () throws(KithError) in try account.completeRecoveredMoveBlocking() }
    }
}

extension Account {
    /// Seals the recovered seeds in an empty `home` (vault, `keys.sealed`), opens it, writes `public.json` and the
    /// marker that keeps it from appending before it learned its own feed.
    static func writeRecoveredHomeBlocking(
        _ recovered: RecoveredIdentity, into home: AccountHome, rotateWhenKnown: Bool, scrypt: ScryptParameters,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String, clock: @escaping @Sendable () -> Int64
    ) throws(KithError) -> Account {
        let fileManager = FileManager.default
        if let entries = try? fileManager.contentsOfDirectory(atPath: home.directory.path), !entries.isEmpty {
            throw .continuity(.homeNotEmpty(path: home.directory.path))
        }
        do {
            try fileManager.createDirectory(at: home.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileSystem(path: home.directory.path, reason: error.localizedDescription)
        }
        let vault = FileKeyVault(url: home.vaultURL, parameters: scrypt, passphrase: passphrase)
        do throws(IdentityError) { try vault.storeSeed(recovered.deviceSeed) } catch { throw .vault(error) }
        if let keySeeds = recovered.keySeeds { try writeSealed(keySeeds, deviceSeed: recovered.deviceSeed, to: home.rotatedKeysURL) }
        let account = try openRotationAware(home: home, seed: recovered.deviceSeed, clock: clock)
        try account.markRecoveredWithoutBackup(rotateWhenKnown: rotateWhenKnown)
        try account.writePublicKeys()
        return account
    }
}
