import KithPush
import KithPushDelivery
import Logging
import Synchronization

/// Delivers knocks: one ``PushNotification`` per active device of the token's owner, handed to
/// the provider of the device's kind on its own task, so the API never waits for delivery.
///
/// Bounded: at most ``PushServerLimits/dispatchQueueCapacity`` notifications are queued or in
/// flight (retries waiting included); beyond, a notification is counted as `dropped`. A
/// `.retryable` outcome is tried again after an exponential backoff with jitter, up to
/// ``PushServerLimits/maximumDeliveryAttempts``; `.targetGone` deactivates the device; `.rejected`
/// is logged with the provider's reason and the device kind only (never the token or endpoint).
public final class PushDispatcher: Sendable {
    private let providers: [PushTargetKind: any PushProvider]
    private let store: any PushStore
    private let limits: PushServerLimits
    private let metrics: PushMetrics
    private let logger: Logger
    private let inFlight = Atomic<Int>(0)

    /// A dispatcher over `providers` (the first of each kind wins).
    public init(providers: [any PushProvider], store: any PushStore, limits: PushServerLimits, metrics: PushMetrics, logger: Logger) {
        var table: [PushTargetKind: any PushProvider] = [:]
        for provider in providers where table[provider.kind] == nil { table[provider.kind] = provider }
        self.providers = table
        self.store = store
        self.limits = limits
        self.metrics = metrics
        self.logger = logger
        let missing = PushTargetKind.allCases.filter { table[$0] == nil }.map(\.rawValue)
        if !missing.isEmpty {
            logger.notice("push: no provider configured; knocks to these devices are counted as undeliverable", metadata: ["kinds": .string(missing.joined(separator: ","))])
        }
    }

    /// Notifications queued or being delivered now.
    public var pending: Int { inFlight.load(ordering: .relaxed) }

    /// Queues the knock `payload` for every device in `devices`; returns at once.
    func dispatch(payload: [UInt8], priority: PushPriority, to devices: [PushDevice]) {
        for device in devices {
            guard let provider = providers[device.kind] else {
                metrics.delivery(.undeliverable)
                logger.debug("push: no provider for this device kind; knock not delivered", metadata: ["kind": .string(device.kind.rawValue)])
                continue
            }
            guard let target = Self.target(of: device) else {
                metrics.delivery(.rejected)
                logger.warning("push: device has unusable Web Push keys; knock not delivered", metadata: ["kind": .string(device.kind.rawValue)])
                continue
            }
            let capacity = limits.dispatchQueueCapacity
            let admitted = inFlight.wrappingAdd(1, ordering: .relaxed).oldValue < capacity
            guard admitted else {
                inFlight.wrappingSubtract(1, ordering: .relaxed)
                metrics.delivery(.dropped)
                continue
            }
            let notification = PushNotification(
                target: target, payload: payload, priority: priority, timeToLiveSeconds: limits.knockTimeToLiveSeconds)
            let deviceID = device.id
            Task {
                await self.deliver(notification, deviceID: deviceID, through: provider)
                self.inFlight.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }

    /// Waits until no notification is queued or in flight (tests and the benchmark).
    public func waitUntilIdle() async {
        while pending > 0 {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    private func deliver(_ notification: PushNotification, deviceID: String, through provider: any PushProvider) async {
        let kind = provider.kind.rawValue
        var attempt = 1
        while true {
            switch await provider.deliver(notification) {
            case .delivered:
                metrics.delivery(.delivered)
                return
            case .targetGone(let reason):
                metrics.delivery(.targetGone)
                logger.info("push: target gone; device deactivated", metadata: ["kind": .string(kind), "reason": .string(Self.short(reason))])
                do throws(PushStoreError) {
                    try await store.deactivateDevice(id: deviceID)
                } catch {
                    logger.error("push: deactivating a gone device failed", metadata: ["error": "\(error)"])
                }
                return
            case .rejected(let reason):
                metrics.delivery(.rejected)
                logger.warning("push: provider rejected a notification", metadata: ["kind": .string(kind), "reason": .string(Self.short(reason))])
                return
            case .retryable(let reason, let retryAfterSeconds):
                guard attempt < limits.maximumDeliveryAttempts else {
                    metrics.delivery(.failed)
                    logger.warning("push: delivery failed after the last attempt", metadata: [
                        "kind": .string(kind), "attempts": .stringConvertible(attempt), "reason": .string(Self.short(reason)),
                    ])
                    return
                }
                metrics.delivery(.retried)
                try? await Task.sleep(for: backoff(attempt: attempt, retryAfterSeconds: retryAfterSeconds))
                attempt += 1
            }
        }
    }

    /// The wait before attempt `attempt + 1`: base × 2^(attempt−1), at least the provider's
    /// `Retry-After`, at most the maximum, times a random 50–100 %.
    func backoff(attempt: Int, retryAfterSeconds: Int?) -> Duration {
        let base = limits.retryBaseDelay * (1 << min(max(0, attempt - 1), 20))
        var delay = min(base, limits.retryMaximumDelay)
        if let retryAfterSeconds, retryAfterSeconds > 0 { delay = min(max(delay, .seconds(retryAfterSeconds)), limits.retryMaximumDelay) }
        return delay * Double.random(in: 0.5...1.0)
    }

    static func target(of device: PushDevice) -> PushTarget? {
        switch device.kind {
        case .apns: return .apns(deviceToken: device.registrationID)
        case .fcm: return .fcm(registrationToken: device.registrationID)
        case .webPush:
            guard let p256dh = device.p256dh, let auth = device.auth,
                  let keys = try? WebPushSubscriberKeys(p256dh: p256dh, auth: auth) else { return nil }
            return .webPush(endpoint: device.registrationID, keys: keys)
        }
    }

    /// A provider's reason, cut to 200 characters for the log.
    private static func short(_ reason: String) -> String { String(reason.prefix(200)) }
}
