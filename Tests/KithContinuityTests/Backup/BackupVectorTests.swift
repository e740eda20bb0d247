import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithContinuity

/// The published backup vector `TestVectors/continuity/backup-v1.json`: fixed key, passphrase and randomness,
/// read by the independent Python reader `Interop/continuity/check_backup.py`.
@Suite struct BackupVectorTests {
    static let records: [BackupRecord] = [
        BackupRecord(kind: .seed, body: (0..<32).map { UInt8(0xA0 &+ $0) }),
        BackupRecord(kind: .contact, body: Array("{\"feed_id\":\"example\"}".utf8)),
        BackupRecord(kind: .envelope, body: (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
        BackupRecord(kind: .envelope, body: []),
    ]

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
        object["records"] = .array(records.map { record in
            .object(["kind": .integer(Int64(record.kind.rawValue)), "length": .integer(Int64(record.body.count)),
                     "sha256": .string(Hex.encode(SHA256.hash(data: record.body)))])
        })
        return .object(object)
    }

    static func generated() throws -> [UInt8] {
        var root = JSONObject()
        root["description"] = .string("Kith backup container v1 (docs/CONTINUITY.md): header, key check, STREAM chunks of typed records")
        root["cases"] = .array([
            try vectorCase(name: "recovery-key", secret: .recoveryKey(BackupFixtures.key), kdf: .recoveryKey, seed: 1),
            try vectorCase(name: "passphrase-scrypt-2^15", secret: .passphrase("correct horse battery staple"),
                           kdf: .scrypt(log2N: 15, blockSize: 8, parallelism: 1), seed: 40),
        ])
        return CanonicalJSON.serialize(root)
    }

    @Test func publishedVectorMatches() throws {
        let generated = try Self.generated()
        let url = TestPaths.kithVectors.appendingPathComponent("continuity/backup-v1.json")
        #expect(try TestPaths.publishedVector(at: url, generated: generated) == generated)
    }
}
