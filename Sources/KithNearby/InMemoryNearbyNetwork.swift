import KithSync
import Synchronization

/// An in-memory LAN for tests: every datagram sent by a member reaches every member (itself
/// included, like multicast loopback), tagged with the sender's pretend address.
public final class InMemoryNearbyNetwork: Sendable {
    private let members = Mutex<[Int: AsyncStream<NearbyDatagram>.Continuation]>([:])
    private let nextID = Mutex(0)

    /// Creates an empty network.
    public init() {}

    /// A member whose datagrams appear to come from `host`.
    public func join(host: String) -> any NearbyDatagramTransport {
        let (stream, continuation) = AsyncStream<NearbyDatagram>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        members.withLock { $0[id] = continuation }
        return Member(network: self, id: id, host: host, datagrams: stream)
    }

    fileprivate func deliver(_ bytes: [UInt8], from host: String) {
        for continuation in members.withLock({ Array($0.values) }) {
            continuation.yield(NearbyDatagram(bytes: bytes, sourceHost: host))
        }
    }

    fileprivate func leave(_ id: Int) {
        members.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    private struct Member: NearbyDatagramTransport {
        let network: InMemoryNearbyNetwork
        let id: Int
        let host: String
        let datagrams: AsyncStream<NearbyDatagram>

        func send(_ bytes: [UInt8]) async throws(NearbyError) { network.deliver(bytes, from: host) }
        func close() async { network.leave(id) }
    }
}
