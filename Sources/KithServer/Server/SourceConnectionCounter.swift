import Synchronization

/// The TCP connections open on this node, counted by source (``RendezvousRequestContext``'s key:
/// an IPv4 address, an IPv6 /64), so that one source cannot hold more than its share of sockets.
///
/// A source's entry exists only while it has an open connection, so the table never holds more
/// entries than there are open connections.
final class SourceConnectionCounter: Sendable {
    /// Connections one source may hold open.
    let limitPerSource: Int
    private let open = Mutex<[String: Int]>([:])

    /// A counter letting each source hold `limitPerSource` connections (at least 1).
    init(limitPerSource: Int) {
        self.limitPerSource = max(1, limitPerSource)
    }

    /// Counts a new connection from `source`; false (and nothing counted) when the source already
    /// holds its limit.
    func admit(_ source: String) -> Bool {
        let limit = limitPerSource
        return open.withLock { table in
            let held = table[source, default: 0]
            guard held < limit else { return false }
            table[source] = held + 1
            return true
        }
    }

    /// A connection counted by ``admit(_:)`` closed.
    func release(_ source: String) {
        open.withLock { table in
            guard let held = table[source] else { return }
            table[source] = held > 1 ? held - 1 : nil
        }
    }

    /// Connections `source` holds now.
    func count(of source: String) -> Int { open.withLock { $0[source, default: 0] } }

    /// Sources holding a connection now.
    var sources: Int { open.withLock { $0.count } }
}
