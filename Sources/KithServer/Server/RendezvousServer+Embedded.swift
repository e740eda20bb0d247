import Synchronization

extension RendezvousServer {
    /// Runs the server in this process while `body` runs, then stops it: for `kith demo` and
    /// tests. `body` gets the base URL it listens on, such as `http://127.0.0.1:53211`
    /// (configure port 0 for a free one).
    ///
    /// - Throws: what `body` throws; ``EmbeddedServerError/didNotStart`` when the server ended
    ///   before it listened (the port is taken, for example).
    public func serving<Result: Sendable>(_ body: (String) async throws -> Result) async throws -> Result {
        let (ports, portInput) = AsyncStream.makeStream(of: (String, Int).self, bufferingPolicy: .bufferingNewest(1))
        let server = self
        let running = Task {
            defer { portInput.finish() }
            try await server.run { host, port in portInput.yield((host, port)) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let (host, port) = await iterator.next() else {
            _ = await running.result
            throw EmbeddedServerError.didNotStart
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        defer { running.cancel() }
        let result = try await body("http://\(shown):\(port)")
        running.cancel()
        _ = await running.result
        return result
    }
}

/// Why ``RendezvousServer/serving(_:)`` could not run its body.
public enum EmbeddedServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server stopped before it listened.
    case didNotStart

    /// One sentence.
    public var description: String { "the embedded rendezvous server stopped before it listened (is the port free?)" }
}
