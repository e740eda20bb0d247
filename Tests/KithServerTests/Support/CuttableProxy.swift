import KithTestSupport
import Synchronization

/// A loopback TCP proxy a test can cut (close every connection it carries) or black-hole (keep them open and
/// silently drop their bytes both ways, like a dead network path); connections made afterwards work normally.
final class CuttableProxy: Sendable {
    /// The connections whose bytes are dropped.
    private final class BlackHoled: Sendable { let ids = Mutex<Set<Int>>([]) }

    private let proxy: LoopbackProxy
    private let blackHoled: BlackHoled

    private init(proxy: LoopbackProxy, blackHoled: BlackHoled) {
        self.proxy = proxy
        self.blackHoled = blackHoled
    }

    /// The proxy's port on 127.0.0.1.
    var port: Int { proxy.port }

    /// Connections accepted so far.
    var accepted: Int { proxy.accepted }

    /// Listens on an ephemeral loopback port and forwards every connection to 127.0.0.1:`targetPort`.
    static func start(to targetPort: Int) async throws -> CuttableProxy {
        let blackHoled = BlackHoled()
        let proxy = try await LoopbackProxy.start(to: targetPort) { id, _, _ in !blackHoled.ids.withLock { $0.contains(id) } }
        return CuttableProxy(proxy: proxy, blackHoled: blackHoled)
    }

    /// Closes every connection carried now.
    func cut() { proxy.cut() }

    /// Drops, from now on, every byte of the connections carried now (both ways), leaving them open.
    func blackHole() {
        let ids = proxy.liveConnections
        blackHoled.ids.withLock { $0.formUnion(ids) }
    }

    /// Stops listening.
    func stop() { proxy.stop() }
}
