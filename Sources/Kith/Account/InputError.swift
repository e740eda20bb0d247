/// Bad input from the user or the app.
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file cannot be read (missing, not a regular file, too large, a read failed).
    case file(path: String, reason: String)
    /// A value breaks a rule; the message names it.
    case invalid(String)
    /// A prekey handover is malformed, or was not issued by or for whom it claims.
    case prekeyHandover(PrekeyHandoverError)

    public var description: String {
        switch self {
        case .file(let path, let reason): "cannot read \(path): \(reason)"
        case .invalid(let message): message
        case .prekeyHandover(let reason): "prekey handover: \(reason)"
        }
    }
}
