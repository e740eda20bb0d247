import KithPushDelivery
import KithRendezvous
import Logging
import Synchronization

/// Sends Inviso's presence pushes ("someone is waiting in your chat room") to the member of a room that is not
/// connected, through the APNs or FCM provider `kith serve` has for its platform.
///
/// At most one push per side of a room per ``RendezvousServerLimits/presencePushInterval`` (on this node), so neither a
/// member nor anyone holding the room id can flood the other phone. A token the push service calls invalid is
/// forgotten, as Inviso's server does. Logs name outcomes only: never a token, room id or device id.
final class PresencePusher: Sendable {
    let store: any RendezvousStore
    let clock: any ServerClock
    let providers: [PushTargetKind: any PushProvider]
    let perPeer: RateLimiter
    let timeToLiveSeconds: Int
    let logger: Logger
    let metrics: ServerMetrics
    private let counts = Mutex<[PresencePushOutcome: Int]>([:])

    /// A pusher delivering through the first provider of each kind in `providers`.
    init(store: any RendezvousStore, clock: any ServerClock, providers: [any PushProvider], limits: RendezvousServerLimits, logger: Logger, metrics: ServerMetrics) {
        self.store = store
        self.clock = clock
        var byKind: [PushTargetKind: any PushProvider] = [:]
        for provider in providers where byKind[provider.kind] == nil { byKind[provider.kind] = provider }
        self.providers = byKind
        let seconds = max(0.001, Double(limits.presencePushInterval.components.seconds) + Double(limits.presencePushInterval.components.attoseconds) / 1e18)
        perPeer = RateLimiter(rule: RateLimitRule(burst: 1, perSecond: 1 / seconds), maximumKeys: limits.rateLimiterKeys)
        timeToLiveSeconds = limits.presencePushTimeToLiveSeconds
        self.logger = logger
        self.metrics = metrics
    }

    /// Pushes to the peer of `asker`'s room when it is not connected and gave a token; answers what happened.
    @discardableResult
    func pushToPeer(of asker: MemberAddress) async -> PresencePushOutcome {
        let outcome = await attempt(asker)
        counts.withLock { $0[outcome, default: 0] += 1 }
        metrics.presencePush(outcome)
        logger.debug("presence push", metadata: ["outcome": "\(outcome.rawValue)"])
        return outcome
    }

    /// How many attempts came to `outcome` so far on this node (for tests).
    func count(of outcome: PresencePushOutcome) -> Int { counts.withLock { $0[outcome, default: 0] } }

    private func attempt(_ asker: MemberAddress) async -> PresencePushOutcome {
        let now = clock.nowMilliseconds()
        let peer: PresencePeer?
        do throws(RendezvousStoreError) {
            peer = try await store.presencePeer(of: asker, now: now)
        } catch {
            logger.error("presence push: store failed", metadata: ["error": "\(error)"])
            return .failed
        }
        guard let peer else { return .noTarget }
        let target: PushTarget = switch peer.token.platform {
        case .ios: .apns(deviceToken: peer.token.text)
        case .android: .fcm(registrationToken: peer.token.text)
        }
        guard let provider = providers[target.kind] else { return .noProvider }
        guard perPeer.take(peer.room.text + "/" + peer.side.rawValue, now: now) == .allowed else { return .rateLimited }
        let notification = PushNotification(presence: PresenceAlert(roomID: peer.room.text), target: target, timeToLiveSeconds: timeToLiveSeconds)
        switch await provider.deliver(notification) {
        case .delivered:
            return .delivered
        case .targetGone:
            do throws(RendezvousStoreError) {
                try await store.forgetPresenceToken(peer)
            } catch {
                logger.error("presence push: store failed", metadata: ["error": "\(error)"])
                return .failed
            }
            return .tokenForgotten
        case .retryable:
            // The reason is not logged: a transport error may quote the URL, which holds an APNs token.
            logger.notice("presence push failed: the push service is unavailable (not retried)")
            return .failed
        case .rejected:
            logger.notice("presence push refused by the push service (check its credentials)")
            return .failed
        }
    }
}
