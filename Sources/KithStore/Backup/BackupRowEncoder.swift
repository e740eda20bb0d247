import KithCanonical

/// Turns carried rows into the compact record bodies of a backup: a table header (kind 0x0031) whenever the table or
/// its columns change, then one row body (kind 0x0030) per row holding values only:
///
///     per header column: tag (1: 0 null, 1 integer, 2 text, 3 blob, 4 same as the previous row) | value
///     integer: 8 bytes big-endian; text, blob: length (4) | bytes; null and repeat: nothing
///
/// A value equal to the same column's value in the previous row under the same header is written as tag 4 (one
/// byte): feed ids, types and audiences of consecutive messages cost a byte each.
public struct BackupRowEncoder: Sendable {
    /// One record body the encoder emits.
    public enum Output: Sendable, Equatable {
        /// A table header body (record kind 0x0031).
        case tableHeader([UInt8])
        /// A compact row body (record kind 0x0030).
        case row([UInt8])
    }

    private var header: BackupTableHeader?
    private var previous: [BackupStoreValue] = []

    /// An encoder with no table header written yet.
    public init() {}

    /// The bodies for `row`: a table header first when the row's table or columns differ from the last row's.
    public mutating func encode(_ row: BackupStoreRow) -> [Output] {
        var out: [Output] = []
        if header?.table != row.table || header?.names != row.names {
            let next = BackupTableHeader(table: row.table, names: row.names)
            header = next
            previous = []
            out.append(.tableHeader(next.encoded))
        }
        var writer = ByteWriter()
        for (index, value) in row.values.enumerated() {
            if index < previous.count, value != .null, previous[index] == value {
                writer.write(BackupValueTag.repeated)
                continue
            }
            switch value {
            case .null: writer.write(BackupValueTag.null)
            case .integer(let number):
                writer.write(BackupValueTag.integer)
                writer.write(UInt64(bitPattern: number))
            case .text(let text):
                writer.write(BackupValueTag.text)
                writer.write(UInt32(text.utf8.count))
                writer.write(bytes: text.utf8)
            case .blob(let bytes):
                writer.write(BackupValueTag.blob)
                writer.write(UInt32(bytes.count))
                writer.write(bytes: bytes)
            }
        }
        previous = row.values
        out.append(.row(writer.bytes))
        return out
    }
}
