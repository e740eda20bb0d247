import Foundation
@testable import KithContinuity

/// Deterministic backups for the container tests and the published vector.
enum BackupFixtures {
    static let key = try! RecoveryKey(bytes: (0..<32).map { UInt8($0) })
    static let otherKey = try! RecoveryKey(bytes: (0..<32).map { UInt8(255 - $0) })

    static func manifest(feedID: String = "kith:test-feed") -> BackupManifest {
        BackupManifest(backupID: "", feedID: feedID, createdAt: 1_800_000_000, schemaVersion: 18,
                       counts: ["envelope": 3, "seed": 1], window: nil, includesBlobs: false)
    }

    /// Records spanning several chunks: a seed, a 200 KB envelope and a small one.
    static let records: [BackupRecord] = [
        BackupRecord(kind: .seed, body: Array(repeating: 0x5A, count: 32)),
        BackupRecord(kind: .envelope, body: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
        BackupRecord(kind: .envelope, body: Array("{\"hello\":\"world\"}".utf8)),
        BackupRecord(kind: .envelope, body: []),
    ]

    /// A counter-based byte source: fixed salt, file id and nonce prefix.
    static func fixedRandom(seed: UInt8) -> (Int) -> [UInt8] {
        let state = Counter(next: seed)
        return { count in (0..<count).map { _ in state.take() } }
    }

    final class Counter: @unchecked Sendable {
        var next: UInt8
        init(next: UInt8) { self.next = next }
        func take() -> UInt8 { defer { next &+= 1 }; return next }
    }

    static func write(secret: BackupSecret = .recoveryKey(key), kdf: BackupKDF = .recoveryKey, seed: UInt8 = 1,
                      records: [BackupRecord] = records, manifest: BackupManifest = manifest()) throws -> [UInt8] {
        var writer = try BackupWriter(output: ByteArrayBackupOutput(), secret: secret, manifest: manifest, kdf: kdf,
                                      randomBytes: fixedRandom(seed: seed))
        for record in records { try writer.append(record) }
        try writer.finish()
        return writer.finishedOutput?.bytes ?? []
    }

    /// Reads every record of `bytes`.
    static func read(_ bytes: [UInt8], secret: BackupSecret = .recoveryKey(key)) throws(BackupError) -> (BackupManifest, [BackupRecord]) {
        var reader = try BackupReader(input: ByteArrayBackupInput(bytes), secret: secret)
        var out: [BackupRecord] = []
        try reader.verifyRemaining { out.append($0) }
        return (reader.manifest, out)
    }

    /// A file whose payload plaintext is exactly `plaintext` (sealed correctly), for malformed-payload tests.
    static func crafted(plaintext: [UInt8], key: RecoveryKey = key) throws -> [UInt8] {
        try BackupPayloadSeal.seal(payload: plaintext, key: key)
    }

    /// `kind (2) | length (4) | body` framing, with the file id of `crafted` stamped into the manifest.
    static func frame(_ kind: UInt16, _ body: [UInt8], claimedLength: UInt32? = nil) -> [UInt8] {
        let length = claimedLength ?? UInt32(body.count)
        return [UInt8(kind >> 8), UInt8(kind & 0xFF),
                UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + body
    }

    static func craftedManifest() -> [UInt8] {
        var manifest = manifest()
        manifest.backupID = (BackupPayloadSeal.fileID).map { String(format: "%02x", $0) }.joined()
        return frame(1, manifest.encoded)
    }

    static let sealedChunk = BackupLimits.chunkSize + BackupLimits.tagSize
    static let prefixSize = BackupHeader.encodedSize + 32
}
