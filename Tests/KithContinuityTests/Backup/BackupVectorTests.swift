import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithStore
import KithTestSupport
import Testing
@testable import KithContinuity

/// The published backup vector `TestVectors/continuity/backup-v1.json`: fixed key, passphrase and randomness,
/// read by the independent Python reader `Interop/continuity/check_backup.py`.
@Suite struct BackupVectorTests {
    /// Store rows in compact form (table headers, values only, repeats, the derived message id left out): what the
    /// independent reader must decode back to `storeRows`.
    static let storeRows: [BackupStoreRow] = {
        let feed = "ed25519:" + String(repeating: "A", count: 43)
        let messageNames = ["feed_id", "sequence", "timestamp", "type", "audience", "envelope_json", "content_json", "tombstoned", "received_at"]
        let first = BackupStoreRow(table: "messages", names: messageNames, values: [
            .text(feed), .integer(0), .integer(1_743_678_000), .text("post"), .text("contacts"),
            .text("{\"sequence\":0,\"type\":\"post\"}"), .null, .integer(0), .integer(1_800_000_000)])
        let second = BackupStoreRow(table: "messages", names: messageNames, values: [
            .text(feed), .integer(1), .integer(1_743_678_001), .text("post"), .text("contacts"),
            .text("{\"sequence\":1,\"type\":\"post\"}"), .text("sealed"), .integer(-1), .integer(1_800_000_000)])
        let blob = BackupStoreRow(table: "blobs", names: ["content_hash", "data", "mime_type", "size_bytes", "stored_at"], values: [
            .text("hash"), .blob([0x00, 0xFF, 0x10]), .null, .integer(3), .integer(1_800_000_000)])
        return [first, second, blob]
    }()

    static let records: [BackupRecord] = {
        var encoder = BackupRowEncoder()
        let rows = storeRows.flatMap { encoder.encode($0) }.map { output in
            switch output {
            case .tableHeader(let body): BackupRecord(kind: .storeTableHeader, body: body)
            case .row(let body): BackupRecord(kind: .storeRow, body: body)
            }
        }
        return [
            BackupRecord(kind: .seed, body: (0..<32).map { UInt8(0xA0 &+ $0) }),
            BackupRecord(kind: .contact, body: Array("{\"feed_id\":\"example\"}".utf8)),
            BackupRecord(kind: .envelope, body: (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
            BackupRecord(kind: .envelope, body: []),
        ] + rows
    }()

    /// The decoded rows as the vector lists them: each column's value (null, integer, text or `{"hex": …}`), the
    /// derived `message_id` of a `messages` row included.
    static var expectedRows: JSONValue {
        .array(storeRows.map { row in
            var columns = JSONObject()
            for (name, value) in zip(row.names, row.values) {
                switch value {
                case .null: columns[name] = .null
                case .integer(let number): columns[name] = .integer(number)
                case .text(let text): columns[name] = .string(text)
                case .blob(let bytes): columns[name] = .object(["hex": .string(Hex.encode(bytes))])
                }
            }
            if row.table == "messages", let index = row.names.firstIndex(of: "envelope_json"), case .text(let envelope) = row.values[index] {
                columns["message_id"] = .string(MessageID(hashing: envelope.utf8).string)
            }
            return .object(["table": .string(row.table), "columns": .object(columns)])
        })
    }

    static func vectorCase(name: String, secret: BackupSecret, kdf: BackupKDF, seed: UInt8) throws -> JSONValue {
        let bytes = try BackupFixtures.write(secret: secret, kdf: kdf, seed: seed, records: records)
        var object = JSONObject()
        object["name"] = .string(name)
        switch secret {
        case .recoveryKey(let key):
            object["recovery_key"] = .string(key.groupedText)
            object["recovery_key_bytes"] = .string(Hex.encode(key.bytes))
        case .passphrase(let passphrase):
            object["passphrase"] = .string(passphrase)
        }
        object["file_hex"] = .string(Hex.encode(bytes))
        var manifest = BackupFixtures.manifest()
        manifest.backupID = Hex.encode(try BackupHeader.parse(Array(bytes.prefix(BackupHeader.encodedSize))).fileID)
        object["manifest"] = .string(String(decoding: manifest.encoded, as: UTF8.self))
        object["store_rows"] = expectedRows
        object["records"] = .array(records.map { record in
            .object(["kind": .integer(Int64(record.kind.rawValue)), "length": .integer(Int64(record.body.count)),
                     "sha256": .string(Hex.encode(SHA256.hash(data: record.body)))])
        })
        return .object(object)
    }

    static func generated() throws -> [UInt8] {
        var root = JSONObject()
        root["description"] = .string("Kith backup container v1 (docs/CONTINUITY.md): header, key check, STREAM chunks of typed records, compact store rows")
        root["cases"] = .array([
            try vectorCase(name: "recovery-key", secret: .recoveryKey(BackupFixtures.key), kdf: .recoveryKey, seed: 1),
            try vectorCase(name: "passphrase-scrypt-2^15", secret: .passphrase("correct horse battery staple"),
                           kdf: .scrypt(log2N: 15, blockSize: 8, parallelism: 1), seed: 40),
        ])
        return CanonicalJSON.serialize(root)
    }

    @Test func theVectorsStoreRowsDecodeBackEqual() throws {
        var decoder = BackupRowDecoder()
        var rows: [BackupStoreRow] = []
        for record in Self.records {
            switch record.kind {
            case .storeTableHeader: try decoder.readHeader(record.body)
            case .storeRow: rows.append(try decoder.readRow(record.body))
            default: break
            }
        }
        #expect(rows == Self.storeRows)
        // Two table headers (messages, blobs) and the repeated values written as one byte each.
        #expect(Self.records.filter { $0.kind == .storeTableHeader }.count == 2)
        #expect(Self.records.filter { $0.kind == .storeRow }.map { $0.body.filter { $0 == 4 }.count }[1] >= 4)
    }

    @Test func publishedVectorMatches() throws {
        let generated = try Self.generated()
        let url = TestPaths.kithVectors.appendingPathComponent("continuity/backup-v1.json")
        #expect(try TestPaths.publishedVector(at: url, generated: generated) == generated)
    }
}
