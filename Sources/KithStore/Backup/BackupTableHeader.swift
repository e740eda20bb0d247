import KithCanonical

/// The table header record of a backup (kind 0x0031): a carried table and the columns the rows after it hold, named
/// once. Bounded binary form:
///
///     table name length (1) | table name | column count (1) | per column: name length (1) | name
///
/// Parsing refuses a table a backup never carries, no or more than `BackupStoreRow.maximumColumns` columns, an
/// empty, repeated or non-UTF-8 name, a column a restore derives itself (`FeedStore.backupDerivedColumns`) and a
/// table missing the column such a value is derived from. Whether each column exists is checked by the import.
public struct BackupTableHeader: Sendable, Equatable {
    /// The table.
    public let table: String
    /// The carried columns, in the order every row under this header gives their values.
    public let names: [String]

    /// Creates a header (not checked: `init(decoding:)` checks what a file claims).
    public init(table: String, names: [String]) {
        self.table = table
        self.names = names
    }

    /// The binary form.
    public var encoded: [UInt8] {
        var writer = ByteWriter()
        Self.writeName(table, to: &writer)
        writer.write(UInt8(truncatingIfNeeded: names.count))
        for name in names { Self.writeName(name, to: &writer) }
        return writer.bytes
    }

    /// Parses and checks the binary form.
    public init(decoding bytes: [UInt8]) throws(StoreError) {
        var reader = ByteReader(bytes)
        do {
            table = try Self.readName(&reader)
            let count = Int(try reader.readUInt8())
            guard (1...BackupStoreRow.maximumColumns).contains(count) else {
                throw StoreError.database("a backup table header claims \(count) columns (1...\(BackupStoreRow.maximumColumns))")
            }
            var names: [String] = []
            for _ in 0..<count { names.append(try Self.readName(&reader)) }
            try reader.expectEnd()
            self.names = names
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database("a backup table header is malformed: \(error)")
        }
        try validate()
    }

    /// The checks a file's header must pass before any row under it is read.
    func validate() throws(StoreError) {
        guard FeedStore.backupCarriedTables.contains(table) else {
            throw .database("a backup table header names \(table.debugDescription), which a backup never carries")
        }
        guard !names.contains(where: \.isEmpty), Set(names).count == names.count else {
            throw .database("a backup table header for \(table) has an empty or repeated column name")
        }
        for derived in FeedStore.backupDerivedColumns where derived.table == table {
            guard !names.contains(derived.column) else {
                throw .database("a backup table header for \(table) carries \(derived.column), which a restore derives from \(derived.source)")
            }
            guard names.contains(derived.source) else {
                throw .database("a backup table header for \(table) lacks \(derived.source), which \(derived.column) is derived from")
            }
        }
    }

    static func writeName(_ name: String, to writer: inout ByteWriter) {
        let utf8 = Array(name.utf8.prefix(255))
        writer.write(UInt8(utf8.count))
        writer.write(bytes: utf8)
    }

    static func readName(_ reader: inout ByteReader) throws -> String {
        let length = Int(try reader.readUInt8())
        guard let name = String(validating: try reader.readBytes(length), as: UTF8.self) else {
            throw StoreError.database("a backup table or column name is not UTF-8")
        }
        return name
    }
}
