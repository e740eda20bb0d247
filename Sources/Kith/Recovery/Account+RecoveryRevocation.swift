import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// Revoking guardian sets (docs/CONTINUITY.md, "Revoking a set"): a `recovery_revoke` direct message tells a guardian
/// to delete the share it holds for the sender; a new set sends one to every replaced guardian.
extension Account.Recovery {
    /// Revokes the current guardian set: every guardian of it is sent a `recovery_revoke` and the set is marked
    /// revoked (`status()` shows it). No new set is made: until `setup` runs again, guardians cannot help recover.
    ///
    /// - Returns: the set revoked (its `revokedAt` set).
    /// - Throws: `KithError.input` when there is no set or it was already revoked; the direct-message errors when a
    ///   revocation cannot be sent (nothing is marked; run it again).
    @discardableResult
    public func revoke() async throws(KithError) -> RecoverySetRecord {
        try await BlockingWork.run { () throws(KithError) in
            let latest: RecoverySetRecord?
            do throws(StoreError) { latest = try account.store.latestRecoverySet() } catch { throw .store(error) }
            guard let latest, latest.revokedAt == nil else {
                throw .input(.invalid("there is no guardian set to revoke: `kith recovery status` shows the current one"))
            }
            try account.sendRecoveryRevocationBlocking(of: latest, to: latest.guardians)
            let now = account.clock()
            do throws(StoreError) { try account.store.markRecoverySetsRevoked(at: now) } catch { throw .store(error) }
            return RecoverySetRecord(generation: latest.generation, setID: latest.setID, threshold: latest.threshold,
                                     guardians: latest.guardians, createdAt: latest.createdAt, identityKey: latest.identityKey,
                                     carriesBackupKey: latest.carriesBackupKey, revokedAt: now)
        }
    }
}

extension Account {
    /// Sends each of `guardians` a `recovery_revoke` for `set` and every older generation.
    func sendRecoveryRevocationBlocking(of set: RecoverySetRecord, to guardians: [FeedID]) throws(KithError) {
        let revocation = RecoveryRevocation(owner: feedID, setID: set.setID, generation: set.generation)
        for guardian in guardians {
            _ = try sendDirectBlocking(.recoveryRevocation(revocation), to: guardian)
        }
    }

    /// Applies a `recovery_revoke` a contact sent, inside the transaction that opens its direct message: the share
    /// held for the sender is deleted when its generation is the revoked one or older, and only when the revocation
    /// names the sender as the owner (a contact cannot revoke a share it does not own).
    static func acceptRecoveryRevocation(_ revocation: RecoveryRevocation, from sender: FeedID, access: DirectSessionAccess) throws {
        guard ConstantTime.equals(revocation.owner.rawBytes, sender.rawBytes) else { return }
        try access.revokeRecoveryShares(of: revocation.owner.string, upTo: revocation.generation)
    }
}
