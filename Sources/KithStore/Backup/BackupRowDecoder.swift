import KithCanonical

/// Reads the compact store records of a backup back into rows (the inverse of `BackupRowEncoder`). It holds the
/// current table header and the previous row's values (one row, each value at most one record body), and refuses
/// a row before any header, a row whose values do not match the header's column count, an unknown tag, a repeat
/// with no previous row, a length beyond the body and trailing bytes.
public struct BackupRowDecoder: Sendable {
    private var header: BackupTableHeader?
    private var previous: [BackupStoreValue] = []

    /// A decoder expecting a table header first.
    public init() {}

    /// Reads a table header record body; the rows after it belong to its table.
    public mutating func readHeader(_ body: [UInt8]) throws(StoreError) {
        header = try BackupTableHeader(decoding: body)
        previous = []
    }

    /// Reads a row record body under the current header.
    public mutating func readRow(_ body: [UInt8]) throws(StoreError) -> BackupStoreRow {
        guard let header else { throw .database("a backup row comes before any table header") }
        var reader = ByteReader(body)
        var values: [BackupStoreValue] = []
        values.reserveCapacity(header.names.count)
        do {
            for index in 0..<header.names.count {
                switch try reader.readUInt8() {
                case BackupValueTag.null: values.append(.null)
                case BackupValueTag.integer: values.append(.integer(Int64(bitPattern: try reader.readUInt64())))
                case BackupValueTag.text:
                    let length = Int(try reader.readUInt32())
                    guard let text = String(validating: try reader.readBytes(length), as: UTF8.self) else {
                        throw StoreError.database("a backup row for \(header.table) holds text that is not UTF-8")
                    }
                    values.append(.text(text))
                case BackupValueTag.blob: values.append(.blob(try reader.readBytes(Int(try reader.readUInt32()))))
                case BackupValueTag.repeated:
                    guard index < previous.count else {
                        throw StoreError.database("a backup row for \(header.table) repeats a value with no previous row")
                    }
                    values.append(previous[index])
                default: throw StoreError.database("a backup row for \(header.table) has an unknown value tag")
                }
            }
            try reader.expectEnd()
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database("a backup row for \(header.table) is malformed: \(error)")
        }
        previous = values
        return BackupStoreRow(table: header.table, names: header.names, values: values)
    }
}
