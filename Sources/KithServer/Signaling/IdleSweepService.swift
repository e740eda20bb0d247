import ServiceLifecycle

/// Closes idle signaling connections (``SignalingHub/closeIdleConnections()``) every
/// ``SignalingHub/idleSweepInterval`` until the server shuts down.
struct IdleSweepService: Service {
    let hub: SignalingHub

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: hub.idleSweepInterval) }
            } catch {
                return
            }
            hub.closeIdleConnections()
        }
    }
}
