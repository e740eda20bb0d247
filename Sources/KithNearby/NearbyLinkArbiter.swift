/// Keeps at most one sync link per peer when both devices discover and dial each other at once.
///
/// Rule (the same as for simultaneous ratchet initiation, docs/FEED-FORMAT.md section 12.6, here over the
/// Noise static keys): **the link initiated by the side with the lower static key (byte order)
/// wins.** Both sides apply it to the same two links, so they keep the same one. To make the race
/// rare, only the lower side dials at once; the higher side dials after a grace period, and only
/// if no link with that peer exists by then (``shouldDial(_:)``).
public actor NearbyLinkArbiter {
    /// What to do with a new, authenticated link.
    public enum Verdict: Sendable, Equatable {
        /// Run the session on it.
        case run
        /// Close it: another link with this peer is preferred, or the peer already synced.
        case drop
    }

    private struct Active {
        var id: Int
        var preferred: Bool
        var close: @Sendable () async -> Void
    }

    private let localKey: [UInt8]
    private var active: [[UInt8]: Active] = [:]
    private var dialing: Set<[UInt8]> = []
    private var completed: Set<[UInt8]> = []
    private var nextID = 0

    /// Creates an arbiter for the device with static key `localKey`.
    public init(localKey: [UInt8]) { self.localKey = localKey }

    /// True when this side has the lower static key and should dial `peer` at once.
    public nonisolated func dialsFirst(_ peer: [UInt8]) -> Bool {
        localKey.lexicographicallyPrecedes(peer)
    }

    /// Whether to dial `peer` now: not when a link with it is up, a dial is in progress, or a
    /// session with it already completed. Marks a dial as in progress when it answers true.
    public func shouldDial(_ peer: [UInt8]) -> Bool {
        guard active[peer] == nil, !dialing.contains(peer), !completed.contains(peer) else { return false }
        dialing.insert(peer)
        return true
    }

    /// Ends a dial attempt (whatever its outcome).
    public func dialFinished(_ peer: [UInt8]) {
        dialing.remove(peer)
    }

    /// Registers a new link with `peer`; returns an id for ``release(_:peer:completed:)`` and the verdict.
    /// A preferred link supersedes a non-preferred one already running (which is closed).
    public func claim(peer: [UInt8], initiatedLocally: Bool, close: @escaping @Sendable () async -> Void) async -> (id: Int, verdict: Verdict) {
        nextID += 1
        let id = nextID
        guard !completed.contains(peer) else { return (id, .drop) }
        let preferred = initiatedLocally == dialsFirst(peer)
        if let existing = active[peer] {
            guard preferred, !existing.preferred else { return (id, .drop) }
            active[peer] = Active(id: id, preferred: preferred, close: close)
            await existing.close()
            return (id, .run)
        }
        active[peer] = Active(id: id, preferred: preferred, close: close)
        return (id, .run)
    }

    /// Ends a link; a completed session marks the peer as synced (no more links to it).
    public func release(_ id: Int, peer: [UInt8], completed sessionCompleted: Bool) {
        if active[peer]?.id == id { active[peer] = nil }
        if sessionCompleted { completed.insert(peer) }
    }

    /// Peers with a completed session.
    public var completedPeers: Set<[UInt8]> { completed }

    /// Closes every running link (at the end of the discovery window).
    public func closeAll() async {
        let links = active.values.map(\.close)
        active = [:]
        for close in links { await close() }
    }
}
