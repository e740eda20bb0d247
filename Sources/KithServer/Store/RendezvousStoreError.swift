/// Why the rendezvous store failed. The detail is for the operator's log; clients only see
/// `internal_error`.
public enum RendezvousStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database could not be opened or migrated.
    case openFailed(path: String, reason: String)
    /// A query failed.
    case queryFailed(String)

    /// One sentence with the cause.
    public var description: String {
        switch self {
        case .openFailed(let path, let reason): "cannot open the rendezvous database at \(path): \(reason); check the path and its permissions"
        case .queryFailed(let reason): "rendezvous database query failed: \(reason)"
        }
    }
}
