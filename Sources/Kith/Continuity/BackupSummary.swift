import KithContinuity

/// What a finished backup holds.
public struct BackupSummary: Sendable {
    /// The manifest written first in the file.
    public let manifest: BackupManifest
    /// Size of the file in bytes.
    public let fileBytes: UInt64
    /// Records after the manifest.
    public let recordCount: UInt64
    /// Bytes of the stored envelopes of this account (`fileBytes / storedEnvelopeBytes` is the size ratio).
    public let storedEnvelopeBytes: Int64
    /// Personas of this home, which a backup does not carry (docs/CONTINUITY.md section 3): their conversations
    /// cannot be restored from this file.
    public let personasNotCarried: Int
}

/// What a restore did: what it carried over and what the account must re-establish.
public struct RestoreReport: Sendable {
    /// The manifest of the restored backup.
    public let manifest: BackupManifest
    /// Rows imported, by table.
    public let importedRows: [String: Int64]
    /// Groups (id and name) whose MLS state was not carried: they need readmission by a member.
    public let groupsAwaitingReadmission: [(groupID: String, name: String?)]
    /// The own feed's head sequence as the backup knew it; posting waits until a newer head is learned.
    public let ownHead: Int64
}

/// Progress of a long backup or restore: records done and records expected (0 when unknown).
public typealias BackupProgress = @Sendable (_ done: UInt64, _ total: UInt64) -> Void
