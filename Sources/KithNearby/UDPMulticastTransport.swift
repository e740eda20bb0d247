import KithSync
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nearby beacons over IPv4 UDP multicast (SwiftNIO `DatagramBootstrap`).
///
/// Binds `0.0.0.0:port` with `SO_REUSEADDR` (several Kith processes on one host share the port),
/// joins `group` on the interface whose IPv4 address is `interfaceAddress` (or the system's
/// default when nil), sends on that interface with multicast loopback on (so two processes on
/// one host, or a test on 127.0.0.1, hear each other) and a TTL of 1 (the local link only).
public final class UDPMulticastTransport: NearbyDatagramTransport {
    /// Every datagram heard.
    public let datagrams: AsyncStream<NearbyDatagram>
    private let channel: any Channel
    private let target: SocketAddress
    private let continuation: AsyncStream<NearbyDatagram>.Continuation

    private init(channel: any Channel, target: SocketAddress, datagrams: AsyncStream<NearbyDatagram>, continuation: AsyncStream<NearbyDatagram>.Continuation) {
        self.channel = channel
        self.target = target
        self.datagrams = datagrams
        self.continuation = continuation
    }

    /// Opens the socket and joins the group.
    /// - Parameters:
    ///   - group: IPv4 multicast group (default ``SyncLimits/defaultNearbyGroup``).
    ///   - port: UDP port (default ``SyncLimits/defaultNearbyPort``).
    ///   - interfaceAddress: IPv4 address of the interface to use ("127.0.0.1" for loopback tests).
    /// - Throws: ``NearbyError/transport(_:)``.
    public static func open(
        group: String = NearbyLimits.defaultNearbyGroup,
        port: Int = NearbyLimits.defaultNearbyPort,
        interfaceAddress: String? = nil
    ) async throws(NearbyError) -> UDPMulticastTransport {
        let (stream, continuation) = AsyncStream<NearbyDatagram>.makeStream(bufferingPolicy: .bufferingNewest(256))
        do {
            let groupAddress = try SocketAddress(ipAddress: group, port: port)
            var groupInAddr = in_addr()
            guard inet_pton(AF_INET, group, &groupInAddr) == 1 else { throw NearbyError.transport("invalid IPv4 group \(group)") }
            var interface = in_addr()
            if let address = interfaceAddress {
                guard inet_pton(AF_INET, address, &interface) == 1 else { throw NearbyError.transport("invalid interface address \(address)") }
                let known = try System.enumerateDevices().contains { $0.address?.ipAddress == address && $0.address?.protocol == .inet }
                guard known else { throw NearbyError.transport("no IPv4 interface has the address \(address)") }
            }
            let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(BeaconInboundHandler(continuation: continuation))
                    }
                }
                .bind(host: "0.0.0.0", port: port).get()
            guard let multicast = channel as? any MulticastChannel, let options = channel as? any SocketOptionProvider else {
                throw NearbyError.transport("the datagram channel does not support multicast")
            }
            if interfaceAddress != nil {
                // IP_ADD_MEMBERSHIP directly: NIO's joinGroup(device:) refuses interfaces without
                // the MULTICAST flag, such as loopback, which Linux nevertheless supports.
                let membership = ip_mreq(imr_multiaddr: groupInAddr, imr_interface: interface)
                try await options.unsafeSetSocketOption(level: .ip, name: .ip_add_membership, value: membership).get()
                try await options.setIPMulticastIF(interface).get()
            } else {
                try await multicast.joinGroup(groupAddress).get()
            }
            try await options.setIPMulticastLoop(1).get()
            try await options.setIPMulticastTTL(1).get()
            return UDPMulticastTransport(channel: channel, target: groupAddress, datagrams: stream, continuation: continuation)
        } catch let error as NearbyError {
            continuation.finish()
            throw error
        } catch {
            continuation.finish()
            throw .transport("cannot open \(group):\(port): \(error)")
        }
    }

    /// Sends one datagram to the group.
    public func send(_ bytes: [UInt8]) async throws(NearbyError) {
        let envelope = AddressedEnvelope(remoteAddress: target, data: ByteBuffer(bytes: bytes))
        do { try await channel.writeAndFlush(envelope).get() } catch { throw .transport("send failed: \(error)") }
    }

    /// Leaves the group and closes the socket.
    public func close() async {
        continuation.finish()
        try? await channel.close().get()
    }
}

/// Hands received datagrams to the transport's stream.
private final class BeaconInboundHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let continuation: AsyncStream<NearbyDatagram>.Continuation

    init(continuation: AsyncStream<NearbyDatagram>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var envelope = unwrapInboundIn(data)
        guard envelope.data.readableBytes <= 2048,
              let bytes = envelope.data.readBytes(length: envelope.data.readableBytes),
              let host = envelope.remoteAddress.ipAddress
        else { return }
        continuation.yield(NearbyDatagram(bytes: bytes, sourceHost: host))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A bad datagram (ICMP error, truncation) is not fatal for a beacon listener.
    }
}
