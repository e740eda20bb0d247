/// The unauthenticated connections of a ``TCPSyncServer``, oldest first, bounded overall and per
/// source address. Admitting one more than a bound allows evicts the oldest (of its source, or
/// overall), so a flood or a slow client can delay but never shut out a newer connection.
actor HandshakeSlots {
    private struct Entry {
        let id: UInt64
        let source: String
        let transport: TCPTransport
    }

    private let maximum: Int
    private let maximumPerSource: Int
    private var entries: [Entry] = []
    private var nextID: UInt64 = 0
    private(set) var evictedIDs: Set<UInt64> = []

    init(maximum: Int, maximumPerSource: Int) {
        self.maximum = max(1, maximum)
        self.maximumPerSource = max(1, maximumPerSource)
    }

    /// Takes a slot for `transport`; returns its id and the connections evicted for it (to close).
    func admit(_ transport: TCPTransport, source: String) -> (id: UInt64, evicted: [TCPTransport]) {
        var evicted: [TCPTransport] = []
        if entries.count(where: { $0.source == source }) >= maximumPerSource,
           let index = entries.firstIndex(where: { $0.source == source }) {
            evicted.append(evict(at: index))
        }
        if entries.count >= maximum { evicted.append(evict(at: 0)) }
        nextID += 1
        entries.append(Entry(id: nextID, source: source, transport: transport))
        return (nextID, evicted)
    }

    /// Releases the slot of `id`; true when it had been evicted.
    func release(_ id: UInt64) -> Bool {
        entries.removeAll { $0.id == id }
        return evictedIDs.remove(id) != nil
    }

    private func evict(at index: Int) -> TCPTransport {
        let entry = entries.remove(at: index)
        evictedIDs.insert(entry.id)
        return entry.transport
    }
}
