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
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sweep() }
            group.addTask { await watch() }
            await group.next()
            group.cancelAll()
        }
        hub.finishAll()
    }

    /// Writes messages stored through another node sharing the store to this node's subscribers.
    private func watch() async {
        let store = store
        let hub = hub
        let clock = clock
        let limit = limits.messagesPerSubscription
        let logger = logger
        await cancelWhenGracefulShutdown {
            await store.watchStoredMessages { subscriptionID in
                let local = hub.connections(of: subscriptionID)
                guard !local.isEmpty else { return }
                do throws(PushStoreError) {
                    let pending = try await store.pendingMessages(subscriptionID: subscriptionID, now: clock.nowMilliseconds(), limit: limit)
                    for connection in local { for message in pending { connection.offer(message) } }
                } catch {
                    logger.error("push: reading stored messages failed", metadata: ["error": "\(error)"])
                }
            }
            // A store with nothing to watch returned at once: wait for the shutdown.
            try? await gracefulShutdown()
        }
    }

    private func sweep() async {
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
    }
}
