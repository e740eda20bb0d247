import KithMLS
/// The result of checking one official test-vector case.
public enum VectorOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Every check of the case matched.
    case passed
    /// A check did not match; the message names the first mismatch.
    case failed(String)
    /// The case was not run (unsupported suite or not yet implemented), with the reason.
    case skipped(String)

    /// True for ``passed``.
    public var isPassed: Bool { self == .passed }

    /// `passed`, `failed: …` or `skipped: …`.
    public var description: String {
        switch self {
        case .passed: "passed"
        case .failed(let reason): "failed: \(reason)"
        case .skipped(let reason): "skipped: \(reason)"
        }
    }
}
