import Foundation
import KithCanonical
import KithIdentity
import KithStore

/// The full card over the first secure link (docs/FEED-FORMAT.md 11.9): what ``CardExchange`` needs of the account.
extension Account {
    /// The pending contact (a scanned compact card) whose `dh_key` is `staticKey`, if any.
    func pendingContact(dhKey staticKey: [UInt8]) async -> PendingContactRecord? {
        await BlockingWork.run { () throws(Never) in self.pendingContactBlocking(dhKey: staticKey) }
    }

    func pendingContactBlocking(dhKey staticKey: [UInt8]) -> PendingContactRecord? {
        (try? store.pendingContact(dhKey: staticKey)) ?? nil
    }

    /// The answer to a peer asking for the full card a compact card of this identity commits to: the card kept under
    /// `commitment` when the compact card was drawn, or ``CardPhaseMessage/noCard``.
    func committedCardAnswer(_ commitment: [UInt8]) async -> CardPhaseMessage {
        await BlockingWork.run { () throws(Never) -> CardPhaseMessage in
            guard commitment.count == 32,
                  let card = try? self.readGroupStore({ try $0.inviteCard(commitment: Base64URL.encode(commitment)) }) else { return .noCard }
            return .card(card)
        }
    }

    /// Completes `pending` with the full card its holder sent over the link whose Noise key is `linkKey`: the card
    /// decodes and verifies, is young enough, names the link's key, and is the committed card (checked again by
    /// ``Account/Contacts/add(card:name:)``, which also keeps the local name given at the scan). Nil when any check fails;
    /// nothing is stored then.
    func completePendingContact(_ bytes: [UInt8], pending: PendingContactRecord, linkKey: [UInt8]) async -> ContactRecord? {
        await BlockingWork.run { () throws(Never) -> ContactRecord? in
            guard let card = try? ContactCard.decode(bytes), (try? card.checkAge(now: self.clock(), maxAge: ContactCardLimits.defaultMaxAge)) != nil,
                  card.feedID == pending.feedID, ConstantTime.equals(Array(card.publicKeys.dhKey.rawRepresentation), linkKey),
                  (try? pending.compactCard.complete(with: card)) != nil else { return nil }
            return try? self.addContactBlocking(card: card, name: nil)
        }
    }
}
