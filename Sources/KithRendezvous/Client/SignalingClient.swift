import HummingbirdWSClient
import Logging

/// Connects to the signaling WebSocket of a rendezvous server (Inviso's protocol).
public enum SignalingClient {
    /// Connects to `url` (such as `ws://127.0.0.1:7460/`), runs `body` with the open channel and
    /// closes the connection when `body` returns.
    ///
    /// The client answers the server's RFC 6455 pings and sends its own every `pingInterval`.
    ///
    /// - Returns: the close status the server sent, if any.
    /// - Throws: ``RendezvousClientError`` when the connection fails; errors thrown by `body`
    ///   are rethrown unchanged.
    @discardableResult
    public static func connect(
        to url: String,
        pingInterval: Duration = .seconds(25),
        logger: Logger = Logger(label: "kith.rendezvous.signaling"),
        body: @escaping @Sendable (SignalingChannel) async throws -> Void
    ) async throws -> SignalingClose {
        guard url.hasPrefix("ws://") || url.hasPrefix("wss://") else { throw RendezvousClientError.invalidURL(url) }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 2 * RendezvousLimits.maximumSignalingMessageBytes,
            autoPing: .enabled(timePeriod: pingInterval)
        )
        let frame: WebSocketCloseFrame?
        do {
            frame = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                do {
                    try await body(SignalingChannel(inbound: inbound, outbound: outbound))
                } catch {
                    throw BodyError(error: error)
                }
            }
        } catch let error as BodyError {
            throw error.error
        } catch {
            throw RendezvousClientError.transport(String(describing: error))
        }
        return SignalingClose(code: frame.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }, reason: frame?.reason)
    }

    /// Carries an error thrown by the caller's body through the WebSocket client unchanged.
    private struct BodyError: Error {
        let error: any Error
    }
}
