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

/// One row of a table a backup carries, with its column names, in a bounded binary form:
///
///     table name length (1) | table name | column count (2)
///     then per column: name length (1) | name | tag (1: 0 null, 1 integer, 2 text, 3 blob)
///                      | integer: 8 bytes big-endian; text, blob: length (4) | bytes
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

    /// The binary form.
    public var encoded: [UInt8] {
        var writer = ByteWriter()
        Self.writeName(table, to: &writer)
        writer.write(UInt16(names.count))
        for (name, value) in zip(names, values) {
            Self.writeName(name, to: &writer)
            switch value {
            case .null: writer.write(UInt8(0))
            case .integer(let number):
                writer.write(UInt8(1))
                writer.write(UInt64(bitPattern: number))
            case .text(let text):
                writer.write(UInt8(2))
                writer.write(UInt32(text.utf8.count))
                writer.write(bytes: Array(text.utf8))
            case .blob(let bytes):
                writer.write(UInt8(3))
                writer.write(UInt32(bytes.count))
                writer.write(bytes: bytes)
            }
        }
        return writer.bytes
    }

    /// Parses the binary form; every length is checked against what remains.
    public init(decoding bytes: [UInt8]) throws(StoreError) {
        var reader = ByteReader(bytes)
        do {
            table = try Self.readName(&reader)
            let count = Int(try reader.readUInt16())
            guard count <= Self.maximumColumns else { throw StoreError.database("backup row claims \(count) columns") }
            var names: [String] = []
            var values: [BackupStoreValue] = []
            for _ in 0..<count {
                names.append(try Self.readName(&reader))
                switch try reader.readUInt8() {
                case 0: values.append(.null)
                case 1: values.append(.integer(Int64(bitPattern: try reader.readUInt64())))
                case 2:
                    let length = Int(try reader.readUInt32())
                    guard let text = String(validating: try reader.readBytes(length), as: UTF8.self) else {
                        throw StoreError.database("backup row text is not UTF-8")
                    }
                    values.append(.text(text))
                case 3: values.append(.blob(try reader.readBytes(Int(try reader.readUInt32()))))
                default: throw StoreError.database("backup row has an unknown value tag")
                }
            }
            try reader.expectEnd()
            self.names = names
            self.values = values
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database("backup row is malformed: \(error)")
        }
    }

    private static func writeName(_ name: String, to writer: inout ByteWriter) {
        let utf8 = Array(name.utf8.prefix(255))
        writer.write(UInt8(utf8.count))
        writer.write(bytes: utf8)
    }

    private static func readName(_ reader: inout ByteReader) throws -> String {
        let length = Int(try reader.readUInt8())
        guard let name = String(validating: try reader.readBytes(length), as: UTF8.self) else {
            throw StoreError.database("backup row name is not UTF-8")
        }
        return name
    }
}
