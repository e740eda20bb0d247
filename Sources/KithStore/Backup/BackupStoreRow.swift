import KithCanonical

/// One column value of a carried store row.
public enum BackupStoreValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// An INTEGER.
    case integer(Int64)
    /// A TEXT value.
    case text(String)
    /// A BLOB.
    case blob([UInt8])
}

/// One row of a table a backup carries: the table, its column names and their values. In a backup it travels in
/// the compact form of `BackupRowEncoder` (a table header naming the columns once, then rows of values only).
public struct BackupStoreRow: Sendable, Equatable {
    /// The most columns a row may claim.
    public static let maximumColumns = 64
    /// The table.
    public let table: String
    /// Column names, in order.
    public let names: [String]
    /// Column values, in the order of `names`.
    public let values: [BackupStoreValue]

    /// Creates a row; `names` and `values` have the same count.
    public init(table: String, names: [String], values: [BackupStoreValue]) {
        self.table = table
        self.names = names
        self.values = values
    }
}

/// The value tags of a compact row (docs/CONTINUITY.md section 2).
enum BackupValueTag {
    static let null: UInt8 = 0
    static let integer: UInt8 = 1
    static let text: UInt8 = 2
    static let blob: UInt8 = 3
    /// The same value as this column in the previous row under the same table header.
    static let repeated: UInt8 = 4
}
