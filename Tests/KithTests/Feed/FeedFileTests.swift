import Foundation
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// Feed files: the streamed line reader, the bounded rejection log, and an import restricted to
/// one feed (issue 11, items 9-11).
@Suite struct FeedFileTests {
    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kith-feedfile-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        return url
    }

    static func lines(_ bytes: [UInt8], maxLineLength: Int = 16, chunkSize: Int = 3) throws -> [FeedLine] {
        let handle = try FileHandle(forReadingFrom: try file(bytes))
        return Array(FeedLineReader(handle: handle, maxLineLength: maxLineLength, chunkSize: chunkSize))
    }

    static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0A] }
        return bytes
    }

    @Test func readerSplitsAtLFDropsOneCRAndSkipsEmptyLines() async throws {
        let lines = try Self.lines(Array("a\r\n\n\nbc\n\r\ndef".utf8))
        #expect(lines == [
            FeedLine(number: 1, bytes: Array("a".utf8)),
            FeedLine(number: 4, bytes: Array("bc".utf8)),
            FeedLine(number: 6, bytes: Array("def".utf8)),
        ])
    }

    @Test func readerYieldsOversizedLinesWithoutTheirBytes() async throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        let lines = try Self.lines(Array("ok\n".utf8) + long + Array("\n".utf8) + Array(repeating: UInt8(ascii: "y"), count: 16) + Array("\r\nz".utf8))
        #expect(lines.count == 4)
        #expect(lines[1] == FeedLine(number: 2, bytes: [], oversizedLength: 100))
        #expect(lines[1].lengthError == .tooLarge(100))
        // Exactly at the limit once its CR is dropped: kept.
        #expect(lines[2].bytes.count == 16 && lines[2].oversizedLength == nil)
        #expect(lines[3] == FeedLine(number: 4, bytes: Array("z".utf8)))
    }

    @Test func aMillionEmptyLinesYieldNothing() async throws {
        #expect(try Self.lines([UInt8](repeating: 0x0A, count: 1_000_000), chunkSize: 1 << 16).isEmpty)
    }

    @Test func rejectionLogKeepsTheFirstLinesAndCountsTheRest() {
        var log = FeedFileRejections(limit: 3)
        for line in [9, 2, 7, 1, 5] { log.record(line: line, sequence: nil, .badSignature) }
        log.record(line: 4, sequence: 4, .sequenceGap(expected: 3, found: 4))
        #expect(log.kept.map(\.line) == [1, 2, 4])
        #expect(log.total == 6 && log.omitted == 3)
        #expect(log.countsByCode == ["bad_signature": 5, "sequence_gap": 1])
    }

    @Test func importWithAKeyStoresThatFeedOnly() async throws {
        let alice = try Account.inMemory()
        let carol = try Account.inMemory()
        let bob = try Account.inMemory()
        for index in 0..<3 { try await alice.publishing.post("a\(index)", audience: .contacts) }
        try await carol.publishing.post("c", audience: .contacts)
        let aliceLines: [[UInt8]] = try await alice.feed.export()
        let carolLines: [[UInt8]] = try await carol.feed.export()
        let mixed: [[UInt8]] = aliceLines + carolLines + [Array("{\"version\":2}".utf8)]
        let bytes = Self.joined(mixed)

        // With Carol's key, none of Alice's lines are stored.
        let asCarol = try await bob.feed.importFile(try FeedLineReader.open(path: try Self.file(bytes).path), identityKey: carol.identity.publicKeys.identityKey)
        #expect(asCarol.stored == 1)
        #expect(asCarol.rejections.countsByCode == ["feed_id_mismatch": aliceLines.count, "missing_field": 1])
        #expect(try bob.store.head(of: alice.feedID) == nil)

        // With Alice's key, Alice's lines are stored and the others refused with their line numbers.
        let asAlice = try await bob.feed.importFile(try FeedLineReader.open(path: try Self.file(bytes).path), identityKey: alice.identity.publicKeys.identityKey)
        #expect(asAlice.stored == aliceLines.count)
        #expect(asAlice.rejections.kept.map(\.line) == [aliceLines.count + 1, aliceLines.count + 2])
        #expect(asAlice.lines == mixed.count)
    }

    @Test func importWithoutAKeyTakesTheFollowedFeedOfTheFirstEntry() async throws {
        let alice = try Account.inMemory()
        let bob = try Account.inMemory()
        try await alice.publishing.post("hi", audience: .contacts)
        let bytes = Self.joined(try await alice.feed.export())
        await #expect(throws: KithError.self) { try await bob.feed.importFile(try FeedLineReader.open(path: try Self.file(bytes).path)) }
        try bob.store.follow(identityKey: alice.identity.publicKeys.identityKey)
        let result = try await bob.feed.importFile(try FeedLineReader.open(path: try Self.file(bytes).path))
        #expect(result.feed == alice.feedID && result.isClean && result.stored > 0)
    }
}
