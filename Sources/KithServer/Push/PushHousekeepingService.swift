import Logging
import ServiceLifecycle

/// Deletes expired whitelist tokens and push messages and old tombstones every sweep interval;
/// on graceful shutdown, ends every subscriber WebSocket (their messages stay stored).
struct PushHousekeepingService: Service {
    let store: any PushStore
    let clock: any ServerClock
    let limits: PushServerLimits
    let hub: PushSubscriberHub
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            let now = clock.nowMilliseconds()
            do throws(PushStoreError) {
                let outcome = try await store.sweepPush(now: now, tombstonesBefore: now - Int64(limits.tombstoneLifetimeSeconds) * 1_000)
                if outcome.tokensDeleted + outcome.messagesDeleted + outcome.tombstonesDeleted > 0 {
                    logger.debug("push swept", metadata: [
                        "tokens": "\(outcome.tokensDeleted)", "messages": "\(outcome.messagesDeleted)", "tombstones": "\(outcome.tombstonesDeleted)",
                    ])
                }
            } catch {
                logger.error("push sweep failed", metadata: ["error": "\(error)"])
            }
        }
        hub.finishAll()
    }
}
