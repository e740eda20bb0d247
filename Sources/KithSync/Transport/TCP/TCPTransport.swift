import NIOCore
import NIOPosix

/// A ``SyncTransport`` over a TCP connection (SwiftNIO), for syncing over a LAN or loopback.
///
/// Each link frame travels as `length u16 | frame` (big-endian length, 1...``mtu``); a frame of
/// length 0 or above the MTU closes the connection (``SyncTransportError/invalidFrameLength(_:mtu:)``).
/// TCP never loses or reorders frames, so the layers above see a perfect link; received frames wait
/// in a bounded queue and reading pauses (TCP flow control) while it is full. Both ends must use
/// the same ``mtu`` (default 509, the largest BLE payload, so the frame layout is the same).
public final class TCPTransport: SyncTransport {
    /// The link frame size.
    public let mtu: Int
    private let channel: any Channel
    private let inbox: TCPFrameInbox

    init(channel: any Channel, inbox: TCPFrameInbox, mtu: Int) {
        self.channel = channel
        self.inbox = inbox
        self.mtu = mtu
    }

    /// The remote address, when known (for display).
    public var remoteDescription: String { channel.remoteAddress.map { "\($0)" } ?? "unknown" }

    /// The remote IP address without the port (the "source" of per-source limits), when known.
    public var remoteHost: String { channel.remoteAddress?.ipAddress ?? "unknown" }

    /// Connects to a listening peer.
    /// - Parameter idleTimeout: seconds without receiving a byte after which the connection is
    ///   closed and a waiting ``receive()`` fails with ``SyncTransportError/idleTimeout``.
    /// - Throws: ``SyncTransportError/connectionFailed(_:)`` when the connection cannot be made,
    ///   ``SyncTransportError/frameTooLarge(size:mtu:)`` for an MTU outside 20...509.
    public static func connect(
        host: String, port: Int, mtu: Int = SyncLimits.maximumMTU, idleTimeout: Double = SyncLimits.tcpIdleTimeoutSeconds
    ) async throws(SyncTransportError) -> TCPTransport {
        try validate(mtu: mtu)
        let inbox = TCPFrameInbox()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try addHandlers(to: channel, inbox: inbox, mtu: mtu, idleTimeout: idleTimeout)
                }
            }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            return TCPTransport(channel: channel, inbox: inbox, mtu: mtu)
        } catch {
            throw .connectionFailed("\(host):\(port): \(error)")
        }
    }

    /// The pipeline of a sync connection: read-idle detection, then framing into the inbox.
    static func addHandlers(to channel: any Channel, inbox: TCPFrameInbox, mtu: Int, idleTimeout: Double) throws {
        let milliseconds = Int64((max(idleTimeout, 0.001) * 1000).rounded(.up))
        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .milliseconds(milliseconds)))
        try channel.pipeline.syncOperations.addHandler(TCPFrameHandler(inbox: inbox, mtu: mtu))
    }

    static func validate(mtu: Int) throws(SyncTransportError) {
        guard (SyncLimits.minimumMTU...SyncLimits.maximumMTU).contains(mtu) else {
            throw .frameTooLarge(size: mtu, mtu: SyncLimits.maximumMTU)
        }
    }

    /// Sends one frame (1...``mtu`` bytes) with its length prefix.
    public func send(_ frame: [UInt8]) async throws(SyncTransportError) {
        guard !frame.isEmpty else { throw .emptyFrame }
        guard frame.count <= mtu else { throw .frameTooLarge(size: frame.count, mtu: mtu) }
        var buffer = channel.allocator.buffer(capacity: SyncLimits.tcpLengthPrefixLength + frame.count)
        buffer.writeInteger(UInt16(frame.count))
        buffer.writeBytes(frame)
        do {
            try await channel.writeAndFlush(buffer).get()
        } catch {
            throw channel.isActive ? .disconnected : .closed
        }
    }

    /// Waits for the next frame.
    public func receive() async throws(SyncTransportError) -> [UInt8] {
        let channel = channel
        return try await inbox.next {
            channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }

    /// Closes the connection; frames already sent are delivered first (TCP).
    public func close() async {
        inbox.finish(.closed)
        try? await channel.close().get()
    }
}
