import ServiceLifecycle

extension RendezvousServer {
    /// Runs the server in this process while `body` runs, then stops it: for `kith demo` and
    /// tests. `body` gets the base URL it listens on, such as `http://127.0.0.1:53211` (`https://` with TLS)
    /// (configure port 0 for a free one).
    ///
    /// - Throws: what `body` throws; ``EmbeddedServerError/didNotStart`` when the server ended
    ///   before it listened (the port is taken, for example).
    public func serving<Result: Sendable>(_ body: (String) async throws -> Result) async throws -> Result {
        let (ports, portInput) = AsyncStream.makeStream(of: (String, Int).self, bufferingPolicy: .bufferingNewest(1))
        let application = makeApplication { host, port in portInput.yield((host, port)) }
        // Its own service group without signal handlers: stopped by a graceful shutdown (open
        // sockets get 1000) once the body returns.
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let running = Task {
            defer { portInput.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let (host, port) = await iterator.next() else {
            _ = await running.result
            throw EmbeddedServerError.didNotStart
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body("\(configuration.tls == nil ? "http" : "https")://\(shown):\(port)"))
        } catch {
            result = .failure(error)
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
        return try result.get()
    }
}

/// Why ``RendezvousServer/serving(_:)`` could not run its body.
public enum EmbeddedServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server stopped before it listened.
    case didNotStart

    /// One sentence.
    public var description: String { "the embedded rendezvous server stopped before it listened (is the port free?)" }
}
