import HummingbirdWSClient
import KithSync
import NIOCore
import KithTDF
import Synchronization

/// A ``SyncTransport`` through a rendezvous server's blind relay: each link frame is one binary
/// WebSocket message on a signaling connection in relay mode (`relay_ready`), forwarded unread to
/// the other member of the room, behind the one-byte kind of ``RelayMessage`` (`0x01`). NanoTDF
/// messages share the relay (``sendNanoTDF(_:)``) and are routed apart by their magic.
///
/// The server sees only the secure link's ciphertext. The peer leaving or disconnecting ends the
/// transport (``SyncTransportError/closed`` or ``SyncTransportError/disconnected`` once the
/// frames already received are read). Made by ``RelayConnection``.
public final class RelayTransport: SyncTransport {
    /// Link frames are at most the largest BLE payload, like ``TCPTransport``'s, so one secure
    /// link layout serves every transport.
    public let mtu: Int = SyncLimits.maximumMTU
    private let outbound: WebSocketOutboundWriter
    private let inbox: RelayFrameInbox
    private let closed = Mutex(false)
    private let socket: RelaySocketState

    init(outbound: WebSocketOutboundWriter, inbox: RelayFrameInbox, socket: RelaySocketState) {
        self.outbound = outbound
        self.inbox = inbox
        self.socket = socket
    }

    /// Sends one frame (1...``mtu`` bytes) as one binary message.
    public func send(_ frame: [UInt8]) async throws(SyncTransportError) {
        guard !frame.isEmpty else { throw .emptyFrame }
        guard frame.count <= mtu else { throw .frameTooLarge(size: frame.count, mtu: mtu) }
        guard !closed.withLock({ $0 }) else { throw .closed }
        do {
            try await outbound.write(.binary(ByteBuffer(bytes: RelayMessage.linkFrame(frame).encoded)))
        } catch {
            await socketFailed()
            throw .disconnected
        }
    }

    /// Sends one NanoTDF as its own relay message; the peer's router hands it to its
    /// ``NanoTDFReceiver`` instead of the secure link.
    /// - Throws: ``SyncTransportError/frameTooLarge(size:mtu:)`` above ``RelayMessage/maximumNanoTDFLength``.
    public func sendNanoTDF(_ nano: NanoTDF) async throws(SyncTransportError) {
        let bytes = nano.serialized
        guard bytes.count <= RelayMessage.maximumNanoTDFLength else {
            throw .frameTooLarge(size: bytes.count, mtu: RelayMessage.maximumNanoTDFLength)
        }
        guard !closed.withLock({ $0 }) else { throw .closed }
        do {
            try await outbound.write(.binary(ByteBuffer(bytes: RelayMessage.nanoTDF(bytes).encoded)))
        } catch {
            await socketFailed()
            throw .disconnected
        }
    }

    /// A write failed: the socket is gone (the session may reconnect).
    private func socketFailed() async {
        await socket.socketDropped()?.finish(.disconnected)
    }

    /// Waits for the next frame from the peer.
    public func receive() async throws(SyncTransportError) -> [UInt8] {
        try await inbox.next()
    }

    /// Ends the transport on this side; the connection itself closes when the body of
    /// ``RelayConnection/open(signalingURL:room:device:timeouts:nanoTDF:reconnect:events:restartWhen:logger:body:)`` returns.
    public func close() async {
        closed.withLock { $0 = true }
        await inbox.finish(.closed)
    }
}
