import HummingbirdWebSocket

extension WebSocketOutboundWriter {
    /// Time between the upgrade and the close frame of a refused connection.
    ///
    /// Closing right after the upgrade sends the close frame and the end of the server's output
    /// (TCP FIN) in the moment the client is still switching its pipeline from HTTP to WebSocket;
    /// a swift-websocket client then loses the frame and waits for its close timeout, not knowing
    /// why (half of 50 clients did so on loopback; none with this pause).
    static let refusalGrace: Duration = .milliseconds(150)

    /// Closes a connection refused right after its upgrade (node full, shutting down, subscription
    /// full) with `code` and `reason`, after ``refusalGrace`` so the client sees the code.
    func refuse(_ code: UInt16, reason: String) async throws {
        try? await Task.sleep(for: Self.refusalGrace)
        try await close(.unknown(code), reason: reason)
    }
}
