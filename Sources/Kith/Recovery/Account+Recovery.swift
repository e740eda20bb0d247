import KithCanonical
import KithContinuity
import KithFeed
import KithIdentity
import KithStore

/// Recovery through contacts (issue 28, docs/CONTINUITY.md "Recovery through contacts").
///
/// ```swift
/// // The owner, while it still has its device:
/// try await account.recovery.setup(threshold: 2, guardians: [alice, bob, carol])
/// // A guardian, after comparing the request's safety code aloud with the person asking:
/// let release = try await guardian.recovery.release(for: ownerFeed, request: request)
/// // The new device:
/// var collector = RecoveryCollector(requestKey: requestKey)
/// try collector.add(release)                                      // one per guardian, `threshold` of them
/// let recovered = try Account.Recovery.rebuild(from: collector)
/// ```
extension Account.Recovery {
    /// Splits this identity's recovery secret (device seed, rotated key seeds and, when given, the backup recovery
    /// key) among `guardians` and hands each its share in a `recovery_share` direct message. The set replaces any
    /// earlier one: it gets a fresh set id and the next generation, guardians drop the older set's share when the new
    /// one arrives, and each guardian of the previous set who is not in this one is sent a `recovery_revoke`.
    ///
    /// - Parameters:
    ///   - threshold: how many guardians must release their shares, 2…16.
    ///   - guardians: distinct contacts, threshold…16 of them, in share order.
    ///   - backupKey: the recovery key the backups are sealed under, carried in the secret so that a person who lost
    ///     it with the device can still open the latest backup after recovery.
    /// - Returns: the set recorded.
    /// - Throws: `KithError.recovery` for an out-of-range threshold or guardian count, `.input` for a repeated
    ///   guardian or this identity itself, `.contacts` when a guardian is not a contact, and the direct-message
    ///   errors when a share cannot be sent (the set is then not recorded; run setup again).
    @discardableResult
    public func setup(threshold: Int, guardians: [FeedID], backupKey: RecoveryKey? = nil) async throws(KithError) -> RecoverySetRecord {
        try await BlockingWork.run { () throws(KithError) in
            try account.setupRecoveryBlocking(threshold: threshold, guardians: guardians, backupKey: backupKey)
        }
    }

    /// True when `set` no longer rebuilds the current keys: they were rotated (for example by a device migration)
    /// after the set was made. Make a new set with `setup`.
    public func isStale(_ set: RecoverySetRecord) async throws(KithError) -> Bool {
        try await BlockingWork.run { () throws(KithError) in
            if let key = set.identityKey { return key != account.identity.publicKeys.identityKeyString }
            do throws(StoreError) {
                guard let rotated = try account.store.latestTimestamp(feed: account.feedID, type: Account.keyRotationType) else { return false }
                return rotated > set.createdAt
            } catch {
                throw .store(error)
            }
        }
    }

    /// The newest guardian set, nil before the first `setup`.
    public func status() async throws(KithError) -> RecoverySetRecord? {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.latestRecoverySet() } catch { throw .store(error) }
        }
    }

    /// The shares this identity holds as a guardian (owner, set, generation; never the share bytes).
    public func held() async throws(KithError) -> [HeldRecoveryShareRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.heldRecoveryShares() } catch { throw .store(error) }
        }
    }

    /// Seals the share held for `owner` to a new device's `request`. Call it only after the person asking was
    /// recognised and the request's `safetyCode` was compared aloud.
    ///
    /// - Throws: `KithError.recovery(.ownerMismatch)` when the request claims another feed, `.input` when no share
    ///   of `owner` is held.
    public func release(for owner: FeedID, request: RecoveryRequest) async throws(KithError) -> RecoveryRelease {
        try await BlockingWork.run { () throws(KithError) in
            let bytes: [UInt8]?
            do throws(StoreError) { bytes = try account.store.heldRecoveryShare(of: owner) } catch { throw .store(error) }
            guard let bytes else { throw .input(.invalid("no recovery share is held for \(owner.string)")) }
            do throws(RecoveryError) {
                return try RecoveryRelease.seal(try RecoveryShare(encoded: bytes), for: request)
            } catch {
                throw .recovery(error)
            }
        }
    }

    /// Rebuilds the lost identity from the shares collected on a new device, and checks that it is the feed the
    /// request claimed.
    ///
    /// - Throws: `KithError.recovery` when the shares do not rebuild a valid secret (too few, mixed sets, forged) or
    ///   the secret derives another feed.
    public static func rebuild(from collector: RecoveryCollector) throws(KithError) -> RecoveredIdentity {
        let secret: [UInt8]
        do throws(RecoveryError) { secret = try collector.combine() } catch { throw .recovery(error) }
        let contents = try RecoverySecretPayload.decode(secret)
        let identity: Identity
        do throws(IdentityError) { identity = try Identity(seed: contents.deviceSeed, keySeeds: contents.keySeeds) } catch { throw .identity(error) }
        guard ConstantTime.equals(identity.feedID.rawBytes, collector.requestKey.request.ownerFeedID) else {
            throw .recovery(.ownerMismatch)
        }
        return RecoveredIdentity(deviceSeed: contents.deviceSeed, keySeeds: contents.keySeeds, backupKey: contents.backupKey,
                                 identity: identity)
    }
}

extension Account {
    func setupRecoveryBlocking(threshold: Int, guardians: [FeedID], backupKey: RecoveryKey?) throws(KithError) -> RecoverySetRecord {
        guard Set(guardians).count == guardians.count else { throw .input(.invalid("a guardian is named twice")) }
        guard !guardians.contains(feedID) else { throw .input(.invalid("you cannot be your own guardian")) }
        for guardian in guardians { _ = try contactRecordBlocking(guardian) }
        let previous: RecoverySetRecord?
        do throws(StoreError) { previous = try store.latestRecoverySet() } catch { throw .store(error) }
        let generation = (previous?.generation ?? 0) + 1
        let secret = RecoverySecretPayload.encode(deviceSeed: deviceSeed, keySeeds: keySeeds, backupKey: backupKey)
        let set: RecoveryShareSet
        do throws(RecoveryError) {
            set = try RecoveryShareSet.split(secret: secret, ownerFeedID: feedID.rawBytes, threshold: threshold,
                                             shareCount: guardians.count, generation: UInt32(truncatingIfNeeded: generation))
        } catch {
            throw .recovery(error)
        }
        for (guardian, share) in zip(guardians, set.shares) {
            _ = try sendDirectBlocking(.recoveryShare(RecoveryShareHandover(shareBytes: share.encoded)), to: guardian)
        }
        let record = RecoverySetRecord(generation: generation, setID: Hex.encode(set.setID), threshold: threshold,
                                       guardians: guardians, createdAt: clock(), identityKey: identity.publicKeys.identityKeyString,
                                       carriesBackupKey: backupKey != nil)
        do throws(StoreError) { try store.recordRecoverySet(record) } catch { throw .store(error) }
        // Guardians replaced: their old shares could still combine with k-1 other old shares, so they are told to
        // delete them (a set already revoked was revoked at every guardian; one no longer a contact cannot be told).
        if let previous, previous.revokedAt == nil {
            let replaced = previous.guardians.filter { !guardians.contains($0) && (try? contactRecordBlocking($0)) != nil }
            try sendRecoveryRevocationBlocking(of: previous, to: replaced)
        }
        return record
    }

    /// Keeps a `recovery_share` a contact handed over, inside the transaction that opens its direct message. A share
    /// that does not decode or names another owner than its sender is ignored (the message is still stored).
    static func acceptRecoveryShare(_ handover: RecoveryShareHandover, from sender: FeedID, access: DirectSessionAccess) throws {
        guard let share = try? RecoveryShare(encoded: handover.shareBytes),
              ConstantTime.equals(share.ownerFeedID, sender.rawBytes) else { return }
        try access.acceptRecoveryShare(share.encoded, from: sender.string, setID: Hex.encode(share.setID),
                                       generation: Int64(share.generation))
    }
}
