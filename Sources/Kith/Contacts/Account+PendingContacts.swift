import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithInvites
import KithStore

/// Compact contact cards (the QR form) and the pending contacts they leave until the full card arrives.
extension Account {
    /// Checks `card` against the pending contact of its feed, if one was scanned: the full card must be the one the
    /// compact card commits to. Returns the local name given at the scan.
    func checkPendingContact(for card: ContactCard) throws(KithError) -> String?? {
        let pending: PendingContactRecord?
        do throws(StoreError) { pending = try store.pendingContact(card.feedID) } catch { throw .store(error) }
        guard let pending else { return .none }
        do throws(CompactContactCardError) {
            _ = try pending.compactCard.complete(with: card)
        } catch {
            throw .contacts(.compactCard(error))
        }
        return .some(pending.localName)
    }
}

extension Account.Contacts {
    /// The compact form of `card` (this identity's own card), for a QR code: keys, name, a commitment to `card`'s
    /// bytes and a signature. The holder of the compact card completes the contact with exactly `card`.
    ///
    /// `card` is kept under the compact card's commitment (with the cards strangers' invites commit to), so a peer
    /// that scanned the compact card gets exactly this card over the first secure link (the card phase,
    /// docs/FEED-FORMAT.md 11.9).
    public func compactCard(for card: ContactCard) async throws(KithError) -> CompactContactCard {
        let compact: CompactContactCard
        do throws(CompactContactCardError) {
            compact = try CompactContactCard.create(identity: account.identity, card: card)
        } catch {
            throw .contacts(.compactCard(error))
        }
        try await BlockingWork.run { () throws(KithError) in
            try account.withGroupStore { access throws(KithError) in
                try account.groupStoreCall(access.saveInviteCard(card.encoded, commitment: Base64URL.encode(compact.commitment)))
            }
        }
        return compact
    }

    /// Verifies a scanned compact card and keeps it as a pending contact until the full card it commits to is added
    /// (``Account/Contacts/add(cardText:name:maxAge:)`` then checks the commitment). Scanning again replaces it.
    @discardableResult
    public func addPending(compactText: String, name: String? = nil) async throws(KithError) -> PendingContactRecord {
        let compact: CompactContactCard
        do throws(CompactContactCardError) {
            compact = try CompactContactCard(text: compactText)
        } catch {
            throw .contacts(.compactCard(error))
        }
        return try await BlockingWork.run { () throws(KithError) in
            guard compact.feedID != account.feedID else { throw .contacts(.ownCard) }
            if let name {
                guard !name.isEmpty, TextLength.scalars(name) <= FeedLimits.maxDisplayName else { throw .contacts(.invalidName) }
            }
            let now = account.clock()
            do throws(StoreError) {
                try account.store.addPendingContact(compact, localName: name, scannedAt: now)
            } catch {
                throw .store(error)
            }
            return PendingContactRecord(compactCard: compact, localName: name, scannedAt: now)
        }
    }

    /// Scanned compact cards still waiting for their full card, most recent first.
    public func pending() async throws(KithError) -> [PendingContactRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.pendingContacts() } catch { throw .store(error) }
        }
    }
}
