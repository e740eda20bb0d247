import KithMLS
/// The official MLS vector files and the checker of each (nil when not implemented yet).
public enum ConformanceCatalog {
    /// Every file of `mlswg/mls-implementations/test-vectors` with its checker, in the suggested implementation order.
    public static let files: [(fileName: String, vector: (any ConformanceVector.Type)?)] = [
        ("tree-math.json", TreeMathVector.self),
        ("deserialization.json", DeserializationVector.self),
        ("crypto-basics.json", CryptoBasicsVector.self),
        ("secret-tree.json", SecretTreeVector.self),
        ("message-protection.json", MessageProtectionVector.self),
        ("key-schedule.json", KeyScheduleVector.self),
        ("psk_secret.json", PSKSecretVector.self),
        ("transcript-hashes.json", TranscriptHashesVector.self),
        ("messages.json", MessagesVector.self),
        ("tree-validation.json", TreeValidationVector.self),
        ("tree-operations.json", TreeOperationsVector.self),
        ("treekem.json", TreeKEMVector.self),
        ("welcome.json", WelcomeVector.self),
        ("passive-client-welcome.json", PassiveClientWelcomeVector.self),
        ("passive-client-handling-commit.json", PassiveClientHandlingCommitVector.self),
        ("passive-client-random.json", PassiveClientRandomVector.self),
    ]

    /// The official files whose cases follow the passive-client schema (``PassiveClientCase``).
    public static let passiveClientFiles: Set<String> = [
        PassiveClientWelcomeVector.fileName, PassiveClientHandlingCommitVector.fileName, PassiveClientRandomVector.fileName,
    ]

    /// The files of upstream `interop/passive/` (MLSpp transcripts in the passive-client schema, not in the shared vectors):
    /// external joins and proposals, PrivateMessage handshakes, ReInit and branch scenarios.
    public static let interopPassiveFiles: Set<String> = [
        "application.json", "branch.json", "commit.json", "external_join.json", "external_proposals.json", "reinit.json", "welcome_join.json",
    ]

    /// The checker for a file name (the last path component), `.some(nil)` when known but not implemented, nil when unknown.
    public static func vector(forFileName name: String) -> (any ConformanceVector.Type)?? {
        files.first { $0.fileName == name }.map { $0.vector }
    }
}
