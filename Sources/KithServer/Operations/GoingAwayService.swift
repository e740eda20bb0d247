import Logging
import ServiceLifecycle

/// Tells connected signaling peers that the server stops: on graceful shutdown (SIGTERM or
/// SIGINT) every connection gets an Inviso `error` message (`Server shutting down`) and a close
/// frame 1001 `going away`; the service then waits, up to `drainTimeout`, for the peers to answer
/// the close before it returns and lets the HTTP server stop.
///
/// Run it after the application in one `ServiceGroup`: a group shuts its services down in reverse
/// order, so the peers are told before the listener closes.
struct GoingAwayService: Service {
    let hub: SignalingHub
    let drainTimeout: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: the process stops at once
        }
        let told = hub.goAway()
        logger.notice("shutting down", metadata: ["connections": .stringConvertible(told)])
        let deadline = ContinuousClock.now + drainTimeout
        while hub.bus.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
