import KithIdentity
import KithStore
import KithSync

/// The card phase of a sync link (docs/FEED-FORMAT.md 11.9, "The full card over the first secure link"): a side that
/// scanned the peer's compact card (a pending contact whose `dh_key` opened the link) asks for the full card it commits
/// to; the peer answers with the card it kept under that commitment when it drew the compact card. A card that
/// arrives is checked as any full card of a pending contact is (signature, age, the commitment in constant time, the
/// same keys and feed, and here also the link's Noise key) and completes the contact before the sync session starts,
/// so the session that follows already syncs with a contact.
///
/// Each side sends exactly one opening, and one answer when the peer's opening asked; a side is finished once it
/// read the peer's opening and, when it asked, the answer. A malformed or unexpected message ends the phase on this
/// side (the session that follows refuses side records, so the link fails): nothing is stored.
actor CardExchange: SyncSideHandler {
    private let account: Account
    private var wanted: PendingContactRecord?
    private var peerOpened = false
    private var answered = false
    /// The contact the phase completed, if any.
    private(set) var completed: ContactRecord?

    init(account: Account) {
        self.account = account
    }

    private var finished: Bool { peerOpened && (wanted == nil || answered) }

    private func stop() -> SyncSideStep { SyncSideStep(finished: true) }

    func opening(peer: SyncPeer, channelBinding: [UInt8]) async -> SyncSideStep {
        wanted = await account.pendingContact(dhKey: peer.staticKey)
        return SyncSideStep(messages: [CardPhaseMessage.opening(wanted: wanted?.compactCard.commitment).encoded()], finished: false)
    }

    func received(_ bytes: [UInt8], peer: SyncPeer) async -> SyncSideStep {
        guard let message = try? CardPhaseMessage(decoding: bytes) else { return stop() }
        switch message {
        case .opening(let commitment):
            guard !peerOpened else { return stop() }
            peerOpened = true
            guard let commitment else { return SyncSideStep(finished: finished) }
            let answer = await account.committedCardAnswer(commitment)
            return SyncSideStep(messages: [answer.encoded()], finished: finished)
        case .card(let card):
            guard peerOpened, let wanted, !answered else { return stop() }
            answered = true
            completed = await account.completePendingContact(card, pending: wanted, linkKey: peer.staticKey)
            return SyncSideStep(finished: finished)
        case .noCard:
            guard peerOpened, wanted != nil, !answered else { return stop() }
            answered = true
            return SyncSideStep(finished: finished)
        }
    }

    func interrupted(peer: SyncPeer) async {}
}
