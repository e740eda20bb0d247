import Logging
import ServiceLifecycle

/// Deletes expired pairings and rooms every ``RendezvousServerLimits/sweepInterval`` until the
/// server shuts down.
struct SweepService: Service {
    let store: any RendezvousStore
    let clock: any ServerClock
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do throws(RendezvousStoreError) {
                let outcome = try await store.sweep(now: clock.nowMilliseconds())
                if outcome.pendingsDeleted + outcome.roomsDeleted > 0 {
                    logger.debug("swept", metadata: ["pendings": "\(outcome.pendingsDeleted)", "rooms": "\(outcome.roomsDeleted)"])
                }
            } catch {
                logger.error("sweep failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
