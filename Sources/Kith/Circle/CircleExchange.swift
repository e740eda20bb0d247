import KithCanonical
import KithIdentity
import KithStore
import KithSync
import KithTDF

/// The inner circle's pool exchange as the side phase of one sync session (docs/TDF.md, "Pool
/// exchange"), inside the authenticated secure link, bound to its handshake hash.
///
/// Each side opens with its intent: a `request` when `kith circle add` armed an exchange with this
/// contact, a `revoke` when `kith circle revoke` left one to announce, `idle` otherwise. A request
/// is answered only by a side that armed an exchange with the requester too (both people agreed in
/// person); when both sent requests, the one with the smaller exchange id runs and the other side
/// answers it. Storage follows the handshake: the initiator stores both pools *pending* when it
/// sends the ack (it may receive, not send), the responder stores them *active* before it sends
/// the commit, the initiator activates them on the verified commit. An `abort` (refused, or a
/// check failed) makes the peer forget the exchange; an interrupted exchange leaves no pool either
/// side can send with, and the armed intent stays for the next session.
actor CircleExchange: SyncSideHandler {
    private let account: Account
    private let contacts: StoreSyncSource
    private var peerFeed: FeedID?
    private var channelBinding: [UInt8] = []
    private var initiator: PoolExchangeInitiator?
    private var responder: PoolExchangeResponder?
    private var peerIntentSeen = false
    private var armed = false
    /// The pool size this side armed: a peer's request for a larger pool is refused (a contact must
    /// not make this side generate and store more keys than its owner agreed to).
    private var armedSize = 0
    private var announcedRevocation = false
    /// This side answered the last exchange and may not know whether its commit arrived.
    private var confirming = false

    init(account: Account, contacts: StoreSyncSource) {
        self.account = account
        self.contacts = contacts
    }

    private var store: FeedStore { account.store }

    private var currentStep: SyncSideStep { SyncSideStep(finished: peerIntentSeen && initiator == nil && responder == nil) }

    private func step(_ messages: [PoolExchangeMessage]) -> SyncSideStep {
        var step = currentStep
        step.messages = messages.map { $0.encoded() }
        return step
    }

    /// The peer broke the exchange protocol: stop reading side messages (what follows reaches the
    /// session, which refuses side records).
    private func stop() -> SyncSideStep {
        initiator = nil
        responder = nil
        return SyncSideStep(finished: true)
    }

    // MARK: SyncSideHandler

    func opening(peer: SyncPeer, channelBinding: [UInt8]) async -> SyncSideStep {
        self.channelBinding = channelBinding
        peerFeed = await contacts.contact(staticKey: peer.staticKey)?.feedID
        guard let peerFeed else { return step([.idle]) }
        // A pool below 10 % is renewed when the peer asks (it arms on its last keys to send): answered
        // as if armed, up to the current pool size.
        if let pools = try? store.oneTimePoolStatuses().first(where: { $0.peer == peerFeed.string }), pools.needsRenewal {
            armed = true
            armedSize = max(armedSize, pools.ownCapacity)
        }
        let intent = try? store.withOneTimePools { pools throws(OneTimePoolError) in try pools.intent(peer: peerFeed.string) }
        switch intent {
        case .revoke?:
            announcedRevocation = true
            return step([.revoke(exchangeID: .random())])
        case .exchange(let size)?:
            guard let started = try? PoolExchangeInitiator(poolSize: size, channelBinding: channelBinding) else { return step([.idle]) }
            armed = true
            armedSize = max(armedSize, size)
            initiator = started
            return step([started.request])
        case .confirm(let size)?:
            // Open without a request; answer the peer's, should its commit have been lost.
            armed = true
            armedSize = max(armedSize, size)
            confirming = true
            return step([.idle])
        case nil:
            return step([.idle])
        }
    }

    func received(_ bytes: [UInt8], peer: SyncPeer) async -> SyncSideStep {
        guard let message = try? PoolExchangeMessage(decoding: bytes) else { return stop() }
        let intent = !peerIntentSeen
        switch message {
        case .idle:
            guard intent else { return stop() }
            peerIntentSeen = true
            // The peer asks for nothing: it had the commit of the exchange this side answered.
            if confirming, let peerFeed { forgetConfirmation(peer: peerFeed) }
            return currentStep
        case .revoke:
            guard intent else { return stop() }
            peerIntentSeen = true
            acceptRevocation()
            return currentStep
        case .request(let request):
            guard intent else { return stop() }
            peerIntentSeen = true
            return await answer(request)
        case .offer(let offer):
            guard !intent, var current = initiator, current.exchangeID == offer.exchangeID, let peerFeed else { return stop() }
            do throws(PoolExchangeError) {
                // Decompressing and checking the peer's keys is heavy: off the actor, like the store work.
                let before = current
                let (ack, pending, advanced) = try await BlockingWork.run { () throws(PoolExchangeError) in
                    var working = before
                    let (ack, pending) = try working.receive(offer: offer)
                    return (ack, pending, working)
                }
                current = advanced
                try await install(pending, peer: peerFeed.string, state: .pending)
                initiator = current
                account.hub.emit(.circlePoolsExchanged(peerFeed, active: false))
                return step([ack])
            } catch {
                initiator = nil
                return step([.abort(exchangeID: offer.exchangeID)])
            }
        case .ack(let ack):
            guard !intent, var current = responder, current.exchangeID == ack.exchangeID, let peerFeed else { return stop() }
            responder = nil
            do throws(PoolExchangeError) {
                let (commit, outcome) = try current.receive(ack: ack)
                try await install(outcome, peer: peerFeed.string, state: .active)
                // The commit may be lost on the way: the peer would then ask again, unprompted by its owner.
                let size = armedSize
                try? store.withOneTimePools { pools throws(OneTimePoolError) in try pools.setIntent(.confirm(poolSize: size), peer: peerFeed.string) }
                account.hub.emit(.circlePoolsExchanged(peerFeed, active: true))
                return step([commit])
            } catch {
                return step([.abort(exchangeID: ack.exchangeID)])
            }
        case .commit(let commit):
            guard !intent, var current = initiator, current.exchangeID == commit.exchangeID, let peerFeed else { return stop() }
            initiator = nil
            let id = current.exchangeID.bytes
            do throws(PoolExchangeError) {
                try current.receive(commit: commit)
                // Told only once stored: a failed write leaves the pools pending (the first message under them activates them).
                let activated = (try? store.withOneTimePools { pools throws(OneTimePoolError) -> Bool in
                    _ = try pools.activate(peer: peerFeed.string, exchangeID: id)
                    try pools.clearIntent(peer: peerFeed.string)
                    return true
                }) ?? false
                if activated { account.hub.emit(.circlePoolsExchanged(peerFeed, active: true)) }
            } catch {
                // The commit does not confirm this exchange: the pending pools are not kept.
                _ = try? store.withOneTimePools { pools throws(OneTimePoolError) in try pools.discard(peer: peerFeed.string, exchangeID: id) }
            }
            return currentStep
        case .abort(let id):
            guard !intent else { return stop() }
            if initiator?.exchangeID == id {
                initiator = nil
                if let peerFeed {
                    _ = try? store.withOneTimePools { pools throws(OneTimePoolError) in try pools.discard(peer: peerFeed.string, exchangeID: id.bytes) }
                }
            }
            if responder?.exchangeID == id { responder = nil }
            return currentStep
        }
    }

    /// After the sync session: once a session completed after the side phase, the peer has read
    /// the revocation (its records came before the session's), so it is not announced again.
    func sessionEnded(completed: Bool) {
        guard completed, announcedRevocation, let peerFeed else { return }
        _ = try? store.withOneTimePools { pools throws(OneTimePoolError) in
            if case .revoke? = try pools.intent(peer: peerFeed.string) { try pools.clearIntent(peer: peerFeed.string) }
        }
    }

    func interrupted(peer: SyncPeer) async {
        initiator = nil
        responder = nil
    }

    // MARK: Steps

    /// Answers the peer's request: only when this side armed an exchange with the peer too; when
    /// both requested, the smaller exchange id runs.
    private func answer(_ request: PoolExchangeMessage.Request) async -> SyncSideStep {
        guard armed, peerFeed != nil else { return step([.abort(exchangeID: request.exchangeID)]) }
        if let mine = initiator {
            // Ours runs: the peer answers it and drops its own request.
            if mine.exchangeID.bytes.lexicographicallyPrecedes(request.exchangeID.bytes) { return currentStep }
            initiator = nil
        }
        let fresh = PoolExchangeResponder(maximumPoolSize: armedSize, channelBinding: channelBinding)
        do throws(PoolExchangeError) {
            // Generating the pool is heavy: off the actor and the cooperative pool.
            let (offer, answering) = try await BlockingWork.run { () throws(PoolExchangeError) in
                var answering = fresh
                return (try answering.receive(request: request), answering)
            }
            responder = answering
            return step([offer])
        } catch {
            return step([.abort(exchangeID: request.exchangeID)])
        }
    }

    /// The peer revoked trust: both pools go, and any exchange armed with them is dropped.
    private func acceptRevocation() {
        guard let peerFeed else { return }
        try? store.withOneTimePools { pools throws(OneTimePoolError) in
            _ = try pools.revoke(peer: peerFeed.string)
            switch try pools.intent(peer: peerFeed.string) {
            case .exchange?, .confirm?: try pools.clearIntent(peer: peerFeed.string)
            case .revoke?, nil: break
            }
        }
        armed = false
        confirming = false
        account.hub.emit(.circleRevokedByPeer(peerFeed))
    }

    /// Forgets a `confirm` intent (not an exchange the owner armed since).
    private func forgetConfirmation(peer: FeedID) {
        confirming = false
        armed = false
        _ = try? store.withOneTimePools { pools throws(OneTimePoolError) in
            if case .confirm? = try pools.intent(peer: peer.string) { try pools.clearIntent(peer: peer.string) }
        }
    }

    /// Seals and stores both pools, off the actor (thousands of keys).
    private func install(_ outcome: PoolExchangeOutcome, peer: String, state: OneTimePoolStatus.State) async throws(PoolExchangeError) {
        let store = store
        do throws(OneTimePoolError) {
            try await BlockingWork.run { () throws(OneTimePoolError) in
                let own = outcome.ownPool.exportedPrivateKeys.map { (keyID: $0.id.bytes, privateKey: $0.rawPrivateKey) }
                try store.withOneTimePools { pools throws(OneTimePoolError) in
                    try pools.install(
                        peer: peer, exchangeID: outcome.exchangeID.bytes, state: state, ownKeys: own, peerKeys: outcome.peerPool.publicKeys
                    )
                }
            }
        } catch {
            throw .invalidKeys(.invalidOffer(reason: "could not be stored: \(error)"))
        }
    }
}
