import KithFeed
import KithIdentity
import KithStore

/// Automatic KeyPackage offers (docs/GROUPS.md, "Automatic offers"): every contact is offered one KeyPackage made for
/// them, over the direct session, at the latest when a sync with them starts; at most
/// `GroupStoreAccess.maxAutomaticKeyPackagesPerContact` waits unused per contact, a used one is replaced at most once per
/// `GroupStoreAccess.automaticKeyOfferInterval`, and removing the contact withdraws them.
extension Account {
    /// Sends `contact` an automatic KeyPackage offer when one is due (offers on, the contact verified, none waiting
    /// unused, the interval passed); nil when none is. The check, the KeyPackage's private half and the message commit
    /// in one transaction: two syncs at once make one offer.
    func offerKeyPackageIfDueBlocking(to contact: FeedID) throws(KithError) -> Envelope? {
        let now = clock()
        let peer = contact.string
        guard try readGroupStore({ access in try access.automaticKeyOfferDue(to: peer, now: now) }) else { return nil }
        guard let record = try? contactRecordBlocking(contact), record.keyIsVerified else { return nil }
        let made = try generateKeyPackage()
        var due = true
        do throws(KithError) {
            return try sendDirectBlocking(.keyPackageOffer(KeyPackageOffer(keyPackageBytes: made.bytes)), to: record.feedID) { access throws(KithError) in
                // Checked again under the write lock: another sync may have made the offer meanwhile.
                due = try self.groupStoreCall(access.automaticKeyOfferDue(to: peer, now: now))
                guard due else { throw .input(.invalid("no automatic KeyPackage offer is due")) }
                try self.groupStoreCall(access.saveOwnKeyPackage(
                    reference: made.reference, recipient: peer, keyPackage: made.bytes, secrets: made.secrets, automatic: true))
                try self.groupStoreCall(access.recordAutomaticKeyOffer(to: peer, at: now))
            }
        } catch where !due {
            return nil
        }
    }
}

extension Account.Groups {
    /// Whether contacts are offered KeyPackages automatically (on unless turned off with
    /// ``Account/Groups/setAutomaticKeyOffers(_:)``).
    public func automaticKeyOffers() async throws(KithError) -> Bool {
        try await BlockingWork.run { () throws(KithError) in
            try account.readGroupStore { access in try access.automaticKeyOffersEnabled() }
        }
    }

    /// Turns automatic KeyPackage offers on or off (kept in the account). Off sends nothing more without being asked
    /// and withdraws the automatic offers waiting unused: their private halves are deleted, so a contact still holding
    /// one cannot add this identity with it (the Welcome is refused). KeyPackages shared with
    /// ``Account/Groups/shareKeyPackage(with:)`` or handed over stay. Returns how many were withdrawn.
    @discardableResult
    public func setAutomaticKeyOffers(_ enabled: Bool) async throws(KithError) -> Int {
        try await BlockingWork.run { () throws(KithError) in
            try account.withGroupStore { access throws(KithError) in try account.groupStoreCall(access.setAutomaticKeyOffers(enabled)) }
        }
    }

    /// Sends `contact` an automatic KeyPackage offer (the `mls_key_package` message of
    /// ``Account/Groups/shareKeyPackage(with:)``) when one is due; nil when none is: offers are off, the contact's keys
    /// are not verified, one made for them waits unused, or the last was made less than
    /// `GroupStoreAccess.automaticKeyOfferInterval` seconds ago. `SyncAgent` calls it for the peer of every sync
    /// session before serving, so the offer travels in that session.
    @discardableResult
    public func offerKeyPackageIfDue(to contact: FeedID) async throws(KithError) -> Envelope? {
        try await BlockingWork.run { () throws(KithError) in try account.offerKeyPackageIfDueBlocking(to: contact) }
    }

    /// Per contact, by shown name: whether an automatic offer waits unused and how many KeyPackages each side holds.
    public func keyOfferStatus() async throws(KithError) -> [KeyOfferStatus] {
        try await BlockingWork.run { () throws(KithError) in
            let contacts: [ContactRecord]
            do throws(StoreError) { contacts = try account.store.contacts() } catch { throw .store(error) }
            let counts = try account.readGroupStore { access in try access.keyPackageCounts() }
            return contacts.map { record in
                let count = counts[record.feedID.string] ?? KeyPackageCounts()
                return KeyOfferStatus(
                    contact: record.feedID, name: record.shownName, automaticOutstanding: count.automaticOutstanding,
                    sharedOutstanding: count.sharedOutstanding, held: count.held)
            }
        }
    }
}
