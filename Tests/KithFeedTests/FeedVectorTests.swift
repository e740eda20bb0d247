import Crypto
import Foundation
import KithCanonical
import KithIdentity
import KithTestSupport
import Testing
@testable import KithFeed

/// Kith's published feed vectors (`TestVectors/feed/feed-v1.json`).
///
/// Generator: `KITH_WRITE_VECTORS=1 swift test --filter FeedVectorTests` rewrites the file from the
/// fixed inputs below; without the variable the test checks the committed file against this code.
@Suite struct FeedVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("feed/feed-v1.json")
    static let seedBytes: [UInt8] = (0..<32).map { UInt8(0x40 + $0) }
    static let bodies: [(String, Audience, Content)] = [
        ("genesis profile (self)", .selfOnly, .profileUpdate(ProfileUpdate(displayName: "Zoë"))),
        ("ASCII post", .selfOnly, .post(Post(body: "Hello, Kith."))),
        ("non-ASCII post", .selfOnly, .post(Post(body: "Grüße aus 東京 🌏 — «ça va?»"))),
        ("escapes", .selfOnly, .post(Post(body: "quote \" backslash \\ tab \t newline \n bell \u{07} slash /"))),
        ("reply with mention", .selfOnly, .post(Post(body: "replying", replyTo: nil, mentions: []))),
        ("reaction", .selfOnly, .reaction(Reaction(targetMessage: try! MessageID(String(repeating: "A", count: 43)), emoji: "👍🏽"))),
    ]

    static func generate() throws -> JSONObject {
        let seed = try Seed(bytes: seedBytes)
        let identity = try Identity(seed: seed)
        var keys = JSONObject()
        keys["seed_hex"] = .string(TestPaths.hexString(seedBytes))
        keys["identity_key"] = .string(identity.publicKeys.identityKeyString)
        keys["dh_key"] = .string(identity.publicKeys.dhKeyString)
        keys["pq_key_sha256"] = .string(TestPaths.hexString(SHA256.hash(data: identity.publicKeys.pqKey.rawRepresentation)))
        keys["feed_id"] = .string(identity.feedID.string)
        keys["journal_key_hex"] = .string(identity.journalKey.withUnsafeBytes { TestPaths.hexString($0) })
        var messages: [JSONValue] = []
        var previous: MessageID?
        for (index, (name, audience, content)) in bodies.enumerated() {
            let plain = try content.canonicalBytes()
            let sealed = try SelfAudienceCipher.seal(plain, key: identity.journalKey, sequence: UInt32(index), feedID: identity.feedID)
            let envelope = try Envelope.sign(UnsignedEnvelope(sequence: UInt32(index), timestamp: 1_763_800_000 + Int64(index) * 60, previous: previous, type: content.type, audience: audience, content: sealed), with: identity)
            var entry = JSONObject()
            entry["description"] = .string(name)
            entry["content_plaintext"] = .string(String(decoding: plain, as: UTF8.self))
            entry["nonce_hex"] = .string(TestPaths.hexString(SelfAudienceCipher.nonce(sequence: UInt32(index), feedID: identity.feedID)))
            entry["signing_input"] = .string(String(decoding: envelope.signingBytes(), as: UTF8.self))
            entry["envelope"] = .string(String(decoding: envelope.canonicalBytes, as: UTF8.self))
            entry["message_id"] = .string(envelope.messageID.string)
            entry["stub"] = .string(String(decoding: try SelfStub.sign(envelope, with: identity).canonicalBytes, as: UTF8.self))
            messages.append(.object(entry))
            previous = envelope.messageID
        }
        var object = JSONObject()
        object["description"] = .string("Kith feed format v1 vectors: key derivation from a seed, a chain of self-audience envelopes, stubs, and invalid cases with reason codes. See docs/FEED-FORMAT.md.")
        object["keys"] = .object(keys)
        object["chain"] = .array(messages)
        object["invalid"] = .array(try invalidCases(identity: identity, chain: messages))
        return object
    }

    /// Each invalid case: the lines of a feed and the first reason code `kith feed verify` reports.
    static func invalidCases(identity: Identity, chain: [JSONValue]) throws -> [JSONValue] {
        let lines = chain.compactMap { $0.objectValue?["envelope"]?.stringValue }
        func entry(_ name: String, _ lines: [String], _ code: String, _ line: Int) -> JSONValue {
            var object = JSONObject()
            object["description"] = .string(name)
            object["lines"] = .array(lines.map { .string($0) })
            object["first_rejected_line"] = .integer(Int64(line))
            object["code"] = .string(code)
            return .object(object)
        }
        func mutate(_ line: String, _ body: (inout JSONObject) -> Void) throws -> String {
            var object = try #require(try CanonicalJSON.parse(Array(line.utf8)).objectValue)
            body(&object)
            return String(decoding: CanonicalJSON.serialize(object), as: UTF8.self)
        }
        return [
            entry("tampered timestamp", [lines[0], try mutate(lines[1]) { $0["timestamp"] = .integer(0) }], "bad_signature", 2),
            entry("whitespace added (not canonical)", [lines[0], lines[1].replacingOccurrences(of: "\",\"", with: "\", \"")], "not_canonical", 2),
            entry("missing message", [lines[0], lines[2]], "sequence_gap", 2),
            entry("padded signature", [try mutate(lines[0]) { $0["signature"] = .string(($0["signature"]?.stringValue ?? "") + "==") }], "invalid_field", 1),
            entry("float in envelope", [lines[0].replacingOccurrences(of: "\"version\":1", with: "\"version\":1.0")], "malformed_json", 1),
            entry("duplicate key", [lines[0].replacingOccurrences(of: "\"version\":1}", with: "\"version\":1,\"version\":1}")], "malformed_json", 1),
            entry("reordered chain", [lines[1], lines[0]], "sequence_gap", 1),
            entry("stub with a forged message id", [lines[0], try mutate(chain[1].objectValue?["stub"]?.stringValue ?? "") { $0["message_id"] = .string(String(repeating: "A", count: 43)) }, lines[2]], "bad_signature", 2),
        ]
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let generated = try Self.generate()
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: CanonicalJSON.serialize(.object(generated)))
        let published = try #require(try CanonicalJSON.parse(bytes).objectValue)
        #expect(published["keys"] == generated["keys"])
        let chain = try #require(published["chain"]?.arrayValue)
        let identity = try Identity(seed: try Seed(bytes: Self.seedBytes))
        var lines: [[UInt8]] = []
        for (index, item) in chain.enumerated() {
            let entry = try #require(item.objectValue)
            let line = Array(try #require(entry["envelope"]?.stringValue).utf8)
            let envelope = try Envelope.parseV1(line)
            try envelope.verifySignature(with: identity.publicKeys.identityKey)
            #expect(envelope.messageID.string == entry["message_id"]?.stringValue)
            #expect(envelope.signingBytes() == Array(try #require(entry["signing_input"]?.stringValue).utf8))
            let plain = try SelfAudienceCipher.open(try envelope.contentBytes(), key: identity.journalKey, sequence: envelope.sequence, feedID: envelope.feedID)
            #expect(plain == Array(try #require(entry["content_plaintext"]?.stringValue).utf8))
            let stubLine = Array(try #require(entry["stub"]?.stringValue).utf8)
            guard case .stub(let stub) = try FeedEntry.parse(stubLine) else { Issue.record("stub"); continue }
            try stub.verifySignature(with: identity.publicKeys.identityKey)
            #expect(stub.messageID == envelope.messageID && stub.previous == envelope.previous && stub.sequence == envelope.sequence)
            #if os(Linux)
            // Ed25519 in BoringSSL is deterministic, so the whole chain reproduces byte for byte.
            #expect(item == generated["chain"]?.arrayValue?[index])
            #endif
            lines.append(line)
        }
        #expect(ChainVerifier(identityKey: identity.publicKeys.identityKey).verify(lines: lines).isValid)
        for item in try #require(published["invalid"]?.arrayValue) {
            let entry = try #require(item.objectValue)
            let caseLines = (entry["lines"]?.arrayValue ?? []).compactMap { $0.stringValue.map { Array($0.utf8) } }
            let report = ChainVerifier(identityKey: identity.publicKeys.identityKey).verify(lines: caseLines)
            #expect(report.rejections.first?.code == entry["code"]?.stringValue, "\(entry["description"]?.stringValue ?? "")")
            #expect(report.rejections.first.map { Int64($0.line) } == entry["first_rejected_line"]?.integerValue)
        }
    }
}
