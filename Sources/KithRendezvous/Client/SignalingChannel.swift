import HummingbirdWSClient
import NIOCore

/// An open signaling connection, handed to the body of ``SignalingClient/connect(to:logger:body:)``.
///
/// ``messages`` yields what the server sends (decoded and bounded) to one consumer; ``send(_:)``
/// may be called from any task at the same time.
public struct SignalingChannel: Sendable {
    /// The server's messages, beginning with `connected`.
    public let messages: SignalingMessages
    private let outbound: WebSocketOutboundWriter

    init(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) {
        messages = SignalingMessages(inbound: inbound)
        self.outbound = outbound
    }

    /// Sends one message.
    public func send(_ message: ClientMessage) async throws(RendezvousClientError) {
        try await sendText(message.text)
    }

    /// Sends raw text as one text message, as given: for tests and diagnostics of the server's
    /// handling of malformed input.
    public func sendText(_ text: String) async throws(RendezvousClientError) {
        do {
            try await outbound.writeTextMessage(text)
        } catch {
            throw .transport(String(describing: error))
        }
    }

    /// Starts the closing handshake with status 1000.
    public func close() async {
        try? await outbound.close(.normalClosure, reason: nil)
    }
}

/// The decoded messages of a ``SignalingChannel``; iterate it from one task only.
public struct SignalingMessages: AsyncSequence, Sendable {
    /// One decoded server message.
    public typealias Element = ServerMessage
    /// Why iteration stopped with an error.
    public typealias Failure = RendezvousClientError

    private let inbound: WebSocketInboundStream

    init(inbound: WebSocketInboundStream) { self.inbound = inbound }

    /// The iterator; nil at the end of the connection.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var frames: WebSocketInboundStream.AsyncIterator

        /// The next message; throws ``RendezvousClientError/invalidResponse(status:reason:)`` for
        /// a message that is not a valid server message.
        public mutating func next() async throws(RendezvousClientError) -> ServerMessage? {
            let message: WebSocketMessage?
            do {
                message = try await frames.nextMessage(maxSize: 2 * RendezvousLimits.maximumSignalingMessageBytes)
            } catch {
                throw .transport(String(describing: error))
            }
            guard let message else { return nil }
            let bytes: [UInt8] = switch message {
            case .text(let text): Array(text.utf8)
            case .binary(let buffer): Array(buffer.readableBytesView)
            }
            do throws(RendezvousCodecError) {
                return try ServerMessage(bytes: bytes)
            } catch {
                throw .invalidResponse(status: 101, reason: error.description)
            }
        }
    }

    /// Makes the iterator (once per connection).
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(frames: inbound.makeAsyncIterator()) }
}
