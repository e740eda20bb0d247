import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

/// Issue 11 item 7: `kith feed verify` (ChainVerifier) and ingest share ChainRules, so they give
/// the same authentication verdict on every entry: published vectors and rotated feeds.
@Suite struct ChainRulesAgreementTests {
    typealias S = StoreFixtures
    typealias E = ContentEffectsTests

    /// Codes about the chain's order, which an export states and a store tolerates (held, forks).
    static let structural: Set<String> = ["sequence_gap", "chain_broken"]

    /// The verifier's verdict per line: its first non-structural code, else `authentic` / `foreign`.
    static func verifierVerdicts(_ lines: [[UInt8]], key: Identity, reader: (@Sendable (Envelope) -> [UInt8]?)? = nil) -> [String] {
        var verifier = ChainVerifier(identityKey: key.publicKeys.identityKey, reader: reader)
        return lines.enumerated().map { index, line in
            let foreignBefore = verifier.summary.foreign
            let codes = verifier.consume(line, number: index + 1).map(\.code).filter { !structural.contains($0) }
            return codes.first ?? (verifier.summary.foreign > foreignBefore ? "foreign" : "authentic")
        }
    }

    /// Ingest's verdict per line, one line at a time in order, in a store that follows `key`'s feed.
    static func ingestVerdicts(_ lines: [[UInt8]], key: Identity, decryptor: (any ContentDecryptor)? = nil) throws -> [String] {
        let store = try FeedStore(path: nil, storageKey: .init(size: .bits256))
        try store.follow(identityKey: key.publicKeys.identityKey)
        return try lines.map { line in
            switch try store.ingest([line], decryptor: decryptor).outcomes.first {
            case .rejected(_, let error)?: error.code
            case .storedForRelay?: "foreign"
            default: "authentic"
            }
        }
    }

    static func publishedVectors() throws -> (identity: Identity, cases: [[[UInt8]]]) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()  // Feed/, KithStoreTests/, Tests/
        let data = try Data(contentsOf: root.appendingPathComponent("TestVectors/feed/feed-v1.json"))
        let published = try #require(try CanonicalJSON.parse(Array(data)).objectValue)
        let chain = try #require(published["chain"]?.arrayValue).compactMap(\.objectValue)
        let envelopes = chain.compactMap { $0["envelope"]?.stringValue.map { Array($0.utf8) } }
        var stubbed = envelopes
        for (index, entry) in chain.enumerated() where index % 2 == 1 {
            if let stub = entry["stub"]?.stringValue { stubbed[index] = Array(stub.utf8) }
        }
        let invalid = try #require(published["invalid"]?.arrayValue).compactMap { item in
            item.objectValue?["lines"]?.arrayValue?.compactMap { $0.stringValue.map { Array($0.utf8) } }
        }
        return (try Identity(seed: try Seed(bytes: (0..<32).map { UInt8(0x40 + $0) })), [envelopes, stubbed] + invalid)
    }

    /// The structural half: verify and ingest place entries with one rule (`ChainRules.place`).
    /// Read in order, a broken link is `chain_broken` for the verifier and fork evidence for
    /// ingest, on the same entry; an entry past a missing one is a gap for the verifier and held
    /// by ingest; a whole chain links everywhere.
    @Test func sameStructuralVerdictsInOrder() throws {
        typealias S = StoreFixtures
        let chain = S.chain(4)
        // A second entry at sequence 2 whose previous names sequence 0: a broken link.
        let broken = S.chain(1, startingAt: 2, previous: chain[0].messageID)[0]
        let cases: [[Envelope]] = [chain, [chain[0], chain[1], broken], [chain[0], chain[2]]]
        for lines in cases {
            var verifier = ChainVerifier(identityKey: S.alice.publicKeys.identityKey)
            let verified = lines.enumerated().map { index, envelope in
                verifier.consume(envelope.canonicalBytes, number: index + 1).map(\.code).first ?? "link"
            }
            let store = try FeedStore(path: nil, storageKey: .init(size: .bits256))
            try store.follow(identityKey: S.alice.publicKeys.identityKey)
            let ingested = try lines.map { envelope -> String in
                switch try store.ingest([envelope.canonicalBytes]).outcomes.first {
                case .stored?: "link"
                case .fork?: "chain_broken"
                case .pending?: "sequence_gap"
                case let other: "\(String(describing: other))"
                }
            }
            #expect(verified == ingested, "\(lines.map(\.sequence))")
        }
    }

    @Test func sameVerdictsOnEveryPublishedVector() throws {
        let (identity, cases) = try Self.publishedVectors()
        #expect(cases.count >= 10)
        for lines in cases {
            #expect(Self.verifierVerdicts(lines, key: identity) == (try Self.ingestVerdicts(lines, key: identity)))
        }
    }

    /// Alice rotates twice (0: post, 1: rotation to alice2, 2: post, 3: rotation to alice3, 4: post).
    static func rotatedFeed() throws -> [[UInt8]] {
        S.lines(try E.chain([
            (.post(Post(body: "before")), S.alice),
            (try E.rotation(to: E.alice2, signedBy: S.alice), S.alice),
            (.post(Post(body: "after first rotation")), E.alice2),
            (try E.rotation(to: E.alice3, signedBy: E.alice2), E.alice2),
            (.post(Post(body: "after second rotation")), E.alice3),
        ]))
    }

    @Test func aRotatedFeedVerifiesForAReaderAsItIngests() throws {
        let lines = try Self.rotatedFeed()
        let reader: @Sendable (Envelope) -> [UInt8]? = { try? $0.contentBytes() }
        let verified = Self.verifierVerdicts(lines, key: S.alice, reader: reader)
        #expect(verified == Array(repeating: "authentic", count: 5))
        #expect(verified == (try Self.ingestVerdicts(lines, key: S.alice, decryptor: S.PlainDecryptor())))
        #expect(ChainVerifier(identityKey: S.alice.publicKeys.identityKey, reader: reader).verify(lines: lines).isValid)
    }

    @Test func aStrangerCannotLearnTheNewKeyAndBothSaySo() throws {
        let lines = try Self.rotatedFeed()
        let verified = Self.verifierVerdicts(lines, key: S.alice)
        #expect(verified == ["authentic", "authentic", "rotated_key_unknown", "rotated_key_unknown", "rotated_key_unknown"])
        #expect(verified == (try Self.ingestVerdicts(lines, key: S.alice)))
    }

    @Test func aForgedRotationIsNeverTrustedByEither() throws {
        // A rotation whose previous_key_sig is made by the new key itself (not the old one).
        let lines = S.lines(try E.chain([
            (.post(Post(body: "before")), S.alice),
            (try E.rotation(to: E.alice2, signedBy: E.alice2), S.alice),
            (.post(Post(body: "signed by the unproven key")), E.alice2),
        ]))
        let reader: @Sendable (Envelope) -> [UInt8]? = { try? $0.contentBytes() }
        let verified = Self.verifierVerdicts(lines, key: S.alice, reader: reader)
        #expect(verified == ["authentic", "authentic", "bad_signature"])
        #expect(verified == (try Self.ingestVerdicts(lines, key: S.alice, decryptor: S.PlainDecryptor())))
    }
}
