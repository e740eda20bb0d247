/// The kind of a record inside a backup's payload (a 16-bit number; docs/CONTINUITY.md lists them).
public struct BackupRecordKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The number on the wire.
    public let rawValue: UInt16
    /// Wraps a number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The manifest: first record, canonical JSON (`BackupManifest`).
    public static let manifest = BackupRecordKind(rawValue: 0x0001)
    /// The identity's 32-byte seed.
    public static let seed = BackupRecordKind(rawValue: 0x0002)
    /// One rotated key seed (canonical JSON: generation and key seed).
    public static let rotatedKeySeed = BackupRecordKind(rawValue: 0x0003)
    /// The public identity file (`public.json`).
    public static let publicIdentity = BackupRecordKind(rawValue: 0x0004)
    /// A contact (canonical JSON).
    public static let contact = BackupRecordKind(rawValue: 0x0010)
    /// A stored feed envelope, as its bytes (own feed and followed feeds).
    public static let envelope = BackupRecordKind(rawValue: 0x0020)
    /// One store row in compact form: the values of the columns the latest table header named (the store defines
    /// the body).
    public static let storeRow = BackupRecordKind(rawValue: 0x0030)
    /// A store table header: the table and the column names the store rows after it carry (the store defines the
    /// body).
    public static let storeTableHeader = BackupRecordKind(rawValue: 0x0031)
    /// A group the account was in (canonical JSON: id, name, members); its MLS state is never carried.
    public static let groupSummary = BackupRecordKind(rawValue: 0x0050)
    /// A blob (content address and bytes), only when the user asked for blobs.
    public static let blob = BackupRecordKind(rawValue: 0x0040)
    /// The last record: the number of records between the manifest and it, as 8 bytes big-endian.
    public static let end = BackupRecordKind(rawValue: 0xFFFF)

    /// The number in hex.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// One typed, length-prefixed record: `kind (2) | length (4) | body`, all big-endian.
public struct BackupRecord: Sendable, Equatable {
    /// What the body is.
    public let kind: BackupRecordKind
    /// The body, at most `BackupLimits.maximumRecordBody` bytes.
    public let body: [UInt8]

    /// Creates a record.
    public init(kind: BackupRecordKind, body: [UInt8]) {
        self.kind = kind
        self.body = body
    }
}
