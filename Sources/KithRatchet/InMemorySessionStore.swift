import KithIdentity
import Synchronization

/// A ``SessionStore`` in memory (tests); keeps the encoded form so tests exercise the codec.
public final class InMemorySessionStore: SessionStore, Sendable {
    private let records = Mutex<[FeedID: [UInt8]]>([:])

    /// Creates an empty store.
    public init() {}

    /// See ``SessionStore/sessionRecord(with:)``.
    public func sessionRecord(with peer: FeedID) throws(RatchetError) -> SessionRecord? {
        guard let bytes = records.withLock({ $0[peer] }) else { return nil }
        return try SessionRecord.decode(bytes)
    }

    /// See ``SessionStore/saveSessionRecord(_:with:)``.
    public func saveSessionRecord(_ record: SessionRecord, with peer: FeedID) throws(RatchetError) {
        let bytes = record.encoded
        records.withLock { $0[peer] = bytes }
    }

    /// See ``SessionStore/deleteSessionRecord(with:)``.
    public func deleteSessionRecord(with peer: FeedID) throws(RatchetError) {
        _ = records.withLock { $0.removeValue(forKey: peer) }
    }
}
