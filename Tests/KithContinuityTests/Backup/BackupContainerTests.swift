import Foundation
import Testing
@testable import KithContinuity

@Suite struct BackupContainerTests {
    @Test func roundTripAcrossChunks() throws {
        let bytes = try BackupFixtures.write()
        #expect(bytes.count > BackupFixtures.prefixSize + BackupFixtures.sealedChunk)
        let (manifest, records) = try BackupFixtures.read(bytes)
        #expect(records == BackupFixtures.records)
        #expect(manifest.feedID == "kith:test-feed")
        #expect(manifest.backupID.count == 32)
    }

    @Test func roundTripWithPassphrase() throws {
        let bytes = try BackupFixtures.write(secret: .passphrase("correct horse"), kdf: .scrypt(log2N: 15, blockSize: 8, parallelism: 1))
        let (_, records) = try BackupFixtures.read(bytes, secret: .passphrase("correct horse"))
        #expect(records == BackupFixtures.records)
        #expect(throws: BackupError.wrongKeyOrNotABackup) { try BackupFixtures.read(bytes, secret: .passphrase("wrong horse")) }
        #expect(throws: BackupError.wrongKeyOrNotABackup) { try BackupFixtures.read(bytes) }
    }

    @Test func emptyPayloadRoundTrips() throws {
        let bytes = try BackupFixtures.write(records: [])
        #expect(try BackupFixtures.read(bytes).1.isEmpty)
    }

    @Test func wrongRecoveryKeyIsNamedBeforeAnyRecord() throws {
        let bytes = try BackupFixtures.write()
        #expect(throws: BackupError.wrongKeyOrNotABackup) {
            _ = try BackupReader(input: ByteArrayBackupInput(bytes), secret: .recoveryKey(BackupFixtures.otherKey))
        }
        #expect(throws: BackupError.wrongKeyOrNotABackup) { try BackupFixtures.read(bytes, secret: .passphrase("x")) }
    }

    @Test func truncationAnywhereIsDetected() throws {
        let bytes = try BackupFixtures.write()
        let chunkStarts = stride(from: BackupFixtures.prefixSize, to: bytes.count, by: BackupFixtures.sealedChunk)
        var cuts: Set<Int> = [0, 7, BackupHeader.encodedSize - 1, BackupHeader.encodedSize, BackupFixtures.prefixSize - 1, bytes.count - 1]
        for start in chunkStarts { cuts.formUnion([start, start + 1, start + 100, start + BackupFixtures.sealedChunk - 1]) }
        for cut in cuts where cut < bytes.count {
            #expect(throws: BackupError.self, "cut at \(cut)") { try BackupFixtures.read(Array(bytes.prefix(cut))) }
        }
        // Dropping the whole last chunk leaves a file whose every chunk authenticates as non-final: refused.
        let lastStart = chunkStarts.reversed().first { $0 < bytes.count } ?? 0
        #expect(throws: BackupError.self) { try BackupFixtures.read(Array(bytes.prefix(lastStart))) }
    }

    @Test func flippedByteAnywhereIsDetected() throws {
        let bytes = try BackupFixtures.write()
        let positions = [0, 8, 9, 10, 20, 60, 67, 70, 99, 100, 5000, BackupFixtures.prefixSize + BackupFixtures.sealedChunk + 3, bytes.count - 20, bytes.count - 1]
        for position in positions {
            var damaged = bytes
            damaged[position] ^= 0x01
            #expect(throws: BackupError.self, "flip at \(position)") { try BackupFixtures.read(damaged) }
        }
        var appended = bytes
        appended.append(0)
        #expect(throws: BackupError.self) { try BackupFixtures.read(appended) }
    }

    @Test func swappedAndForeignChunksAreDetected() throws {
        let bytes = try BackupFixtures.write()
        let first = BackupFixtures.prefixSize
        let size = BackupFixtures.sealedChunk
        var swapped = bytes
        swapped.replaceSubrange(first..<first + size, with: bytes[first + size..<first + 2 * size])
        swapped.replaceSubrange(first + size..<first + 2 * size, with: bytes[first..<first + size])
        #expect(throws: BackupError.tampered("chunk 0 does not authenticate: it was altered, reordered or taken from another file")) {
            try BackupFixtures.read(swapped)
        }
        // Same key, another file: its chunk 1 does not fit this file.
        let other = try BackupFixtures.write(seed: 77)
        var mixed = bytes
        mixed.replaceSubrange(first + size..<first + 2 * size, with: other[first + size..<first + 2 * size])
        #expect(throws: BackupError.self) { try BackupFixtures.read(mixed) }
    }

    @Test func headerTamperingIsRefusedBeforeDerivation() throws {
        let bytes = try BackupFixtures.write(secret: .passphrase("pw"), kdf: .scrypt(log2N: 15, blockSize: 8, parallelism: 1))
        var weak = bytes
        weak[10] = 10 // log2N 10 is below the vault's default
        #expect(throws: BackupError.unacceptableParameters("scrypt log2N 10, r 8, p 1 outside log2N 15...20, r 8...16, p 1...4")) {
            try BackupFixtures.read(weak, secret: .passphrase("pw"))
        }
        var costly = bytes
        costly[10] = 20
        costly[11] = 16 // 128 · 16 · 2^20 = 2 GiB
        #expect(throws: BackupError.self) { try BackupFixtures.read(costly, secret: .passphrase("pw")) }
        var version = bytes
        version[8] = 2
        #expect(throws: BackupError.notABackup("format version 2 is not known to this Kith (it reads version 1)")) {
            try BackupFixtures.read(version, secret: .passphrase("pw"))
        }
        #expect(throws: BackupError.self) { try BackupFixtures.read(Array("not a backup at all".utf8)) }
    }

    @Test func oversizeAndMisorderedRecordsAreRefused() throws {
        let manifest = BackupFixtures.craftedManifest()
        let end: [UInt8] = BackupFixtures.frame(0xFFFF, [0, 0, 0, 0, 0, 0, 0, 0])
        // Sanity: the crafted framing itself is accepted.
        #expect(try BackupFixtures.read(try BackupFixtures.crafted(plaintext: manifest + end)).1.isEmpty)

        let oversize = manifest + BackupFixtures.frame(0x20, [], claimedLength: UInt32(BackupLimits.maximumRecordBody + 1))
        #expect(throws: BackupError.malformed("a record of kind 32 claims 16777217 bytes, more than 16777216")) {
            try BackupFixtures.read(try BackupFixtures.crafted(plaintext: oversize))
        }
        let noManifest = BackupFixtures.frame(0x20, [1, 2]) + end
        #expect(throws: BackupError.malformed("the first record is not the manifest")) {
            try BackupFixtures.read(try BackupFixtures.crafted(plaintext: noManifest))
        }
        let noEnd = manifest + BackupFixtures.frame(0x20, [1, 2])
        #expect(throws: BackupError.tampered("the payload ended without its end record")) {
            try BackupFixtures.read(try BackupFixtures.crafted(plaintext: noEnd))
        }
        let wrongCount = manifest + BackupFixtures.frame(0x20, [1]) + end
        #expect(throws: BackupError.tampered("the end record counts 0 records, the file holds 1")) {
            try BackupFixtures.read(try BackupFixtures.crafted(plaintext: wrongCount))
        }
        let trailing = manifest + end + [0]
        #expect(throws: BackupError.malformed("bytes follow the end record")) {
            try BackupFixtures.read(try BackupFixtures.crafted(plaintext: trailing))
        }
    }

    @Test func writerRefusesReservedAndOversizeRecords() throws {
        var writer = try BackupWriter(output: ByteArrayBackupOutput(), secret: .recoveryKey(BackupFixtures.key),
                                      manifest: BackupFixtures.manifest())
        #expect(throws: BackupError.self) { try writer.append(BackupRecord(kind: .end, body: [])) }
        #expect(throws: BackupError.self) {
            try writer.append(BackupRecord(kind: .blob, body: Array(repeating: 0, count: BackupLimits.maximumRecordBody + 1)))
        }
    }
}
