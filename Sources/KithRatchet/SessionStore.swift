import Synchronization

/// Where sessions are kept between operations, one per contact (the facade's SQLite table
/// `dr_sessions`, encrypted at rest).
public protocol SessionStore: Sendable {
    /// The stored session with `peer`, if any.
    func session(forPeer peer: String) throws(RatchetError) -> RatchetSession?
    /// Stores (replaces) the session with its peer.
    func save(_ session: RatchetSession) throws(RatchetError)
    /// Deletes the session with `peer`.
    func deleteSession(forPeer peer: String) throws(RatchetError)
}

/// A ``SessionStore`` in memory; stores the serialized form so tests exercise the codec.
public final class InMemorySessionStore: SessionStore {
    private let sessions = Mutex<[String: [UInt8]]>([:])

    /// Creates an empty store.
    public init() {}

    /// See ``SessionStore/session(forPeer:)``.
    public func session(forPeer peer: String) throws(RatchetError) -> RatchetSession? {
        guard let bytes = sessions.withLock({ $0[peer] }) else { return nil }
        return try RatchetSessionCodec.decode(bytes)
    }

    /// See ``SessionStore/save(_:)``.
    public func save(_ session: RatchetSession) throws(RatchetError) {
        let bytes = RatchetSessionCodec.encode(session)
        sessions.withLock { $0[session.peerFeedID] = bytes }
    }

    /// See ``SessionStore/deleteSession(forPeer:)``.
    public func deleteSession(forPeer peer: String) throws(RatchetError) {
        _ = sessions.withLock { $0.removeValue(forKey: peer) }
    }
}
