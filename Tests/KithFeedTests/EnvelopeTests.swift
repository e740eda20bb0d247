import Crypto
import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

@Suite struct EnvelopeTests {
    typealias F = FeedFixtures

    @Test func signedEnvelopeIsCanonicalWithSpecFieldOrder() throws {
        let envelope = F.chain(1)[0]
        let text = String(decoding: envelope.canonicalBytes, as: UTF8.self)
        let order = ["audience", "content_enc", "feed_id", "previous", "sequence", "signature", "timestamp", "type", "version"]
        var last = text.startIndex
        for key in order {
            let range = try #require(text.range(of: "\"\(key)\":"))
            #expect(range.lowerBound >= last)
            last = range.lowerBound
        }
        #expect(!text.contains(" "))
        #expect(text.contains("\"previous\":null"))
        #expect(envelope.messageID == MessageID(hashing: envelope.canonicalBytes))
        #expect(CanonicalJSON.serialize(try CanonicalJSON.parse(envelope.canonicalBytes)) == envelope.canonicalBytes)
    }

    @Test func signatureCoversCanonicalEnvelopeWithoutSignature() throws {
        let envelope = F.chain(1)[0]
        let unsigned = F.fields(sequence: 0, type: "post", audience: "contacts", content: Array("content 0".utf8))
        #expect(envelope.signingBytes() == CanonicalJSON.serialize(unsigned))
        #expect(F.alice.publicKeys.identityKey.isValidSignature(envelope.signature, for: envelope.signingBytes()))
        try envelope.verifySignature(with: F.alice.publicKeys.identityKey)
    }

    @Test func parseRoundTripsEveryField() throws {
        let chain = F.chain(3)
        let parsed = try Envelope.parseV1(chain[2].canonicalBytes)
        #expect(parsed.sequence == 2)
        #expect(parsed.previous == chain[1].messageID)
        #expect(parsed.feedID == F.alice.feedID)
        #expect(parsed.audience == .contacts)
        #expect(try parsed.contentBytes() == Array("content 2".utf8))
        #expect(parsed == chain[2])
    }

    @Test func wrongKeyOrTamperingFailsVerification() throws {
        let envelope = F.chain(1)[0]
        #expect(F.code { try envelope.verifySignature(with: F.bob.publicKeys.identityKey) } == "feed_id_mismatch")
        #expect(F.code { try envelope.verifySignature(with: F.bob.publicKeys.identityKey, feedKey: F.alice.publicKeys.identityKey) } == "bad_signature")
        var object = try #require(try CanonicalJSON.parse(envelope.canonicalBytes).objectValue)
        object["timestamp"] = .integer(1)
        let tampered = try Envelope.parseV1(CanonicalJSON.serialize(object))
        #expect(F.code { try tampered.verifySignature(with: F.alice.publicKeys.identityKey) } == "bad_signature")
    }

    @Test func signedByAnotherKeyUnderThisFeedIDIsRejected() throws {
        let forged = F.signRaw(F.fields(F.alice), with: F.bob)
        let envelope = try Envelope.parseV1(forged)
        #expect(F.code { try envelope.verifySignature(with: F.bob.publicKeys.identityKey) } == "feed_id_mismatch")
        #expect(F.code { try envelope.verifySignature(with: F.alice.publicKeys.identityKey) } == "bad_signature")
    }

    @Test func unknownVersionIsKeptForRelayNotVerified() throws {
        var fields = F.fields()
        fields["version"] = .integer(2)
        fields["new_thing"] = .string("x")
        let bytes = F.signRaw(fields)
        guard case .foreign(let foreign) = try Envelope.parse(bytes) else { Issue.record("expected foreign"); return }
        #expect(foreign.version == 2)
        #expect(foreign.feedID == F.alice.feedID)
        #expect(foreign.sequence == 0)
        #expect(foreign.bytes == bytes)
        #expect(F.code { _ = try Envelope.parseV1(bytes) } == "unsupported_version")
    }

    @Test func unknownTopLevelFieldsAreKeptAndSigned() throws {
        var fields = F.fields()
        fields["zz_future"] = .object(["hint": .integer(3)])
        let envelope = try Envelope.parseV1(F.signRaw(fields))
        #expect(envelope.extraFields["zz_future"] != nil)
        try envelope.verifySignature(with: F.alice.publicKeys.identityKey)
    }

    @Test(arguments: [
        [String](), ["zz_future"], ["aa_early"], ["aa_early", "sig", "signaturf", "zz_future"],
    ])
    func signingBytesAreTheEnvelopeWithoutItsSignature(extraKeys: [String]) throws {
        var fields = F.fields(sequence: 3, previous: MessageID(hashing: [3]).string)
        for key in extraKeys {
            fields[key] = .object(["signature": .string("nested, not the envelope's"), "n": .integer(1)])
        }
        let envelope = try Envelope.parseV1(F.signRaw(fields))
        #expect(envelope.signingBytes() == CanonicalJSON.serialize(fields))
        #expect(envelope.signingBytes() == CanonicalJSON.serialize(envelope.canonicalObject().removing("signature")))
        try envelope.verifySignature(with: F.alice.publicKeys.identityKey)
    }

    nonisolated(unsafe) static let fieldRules: [(String, (inout JSONObject) -> Void, String)] = [
        ("missing version", { (o: inout JSONObject) in o["version"] = nil }, "missing_field"),
        ("missing feed_id", { (o: inout JSONObject) in o["feed_id"] = nil }, "missing_field"),
        ("missing sequence", { (o: inout JSONObject) in o["sequence"] = nil }, "missing_field"),
        ("missing timestamp", { (o: inout JSONObject) in o["timestamp"] = nil }, "missing_field"),
        ("missing previous", { (o: inout JSONObject) in o["previous"] = nil }, "missing_field"),
        ("missing type", { (o: inout JSONObject) in o["type"] = nil }, "missing_field"),
        ("missing audience", { (o: inout JSONObject) in o["audience"] = nil }, "missing_field"),
        ("missing content_enc", { (o: inout JSONObject) in o["content_enc"] = nil }, "missing_field"),
        ("version zero", { (o: inout JSONObject) in o["version"] = .integer(0) }, "invalid_field"),
        ("version string", { (o: inout JSONObject) in o["version"] = .string("1") }, "invalid_field"),
        ("feed_id malformed", { (o: inout JSONObject) in o["feed_id"] = .string("abc") }, "invalid_field"),
        ("feed_id padded", { (o: inout JSONObject) in o["feed_id"] = .string(FeedFixtures.alice.feedID.string + "=") }, "invalid_field"),
        ("negative sequence", { (o: inout JSONObject) in o["sequence"] = .integer(-1) }, "invalid_field"),
        ("sequence 2^32-1", { (o: inout JSONObject) in o["sequence"] = .integer(0xFFFF_FFFF); o["previous"] = .string(String(repeating: "A", count: 43)) }, "invalid_field"),
        ("negative timestamp", { (o: inout JSONObject) in o["timestamp"] = .integer(-5) }, "invalid_field"),
        ("genesis with previous", { (o: inout JSONObject) in o["previous"] = .string(String(repeating: "A", count: 43)) }, "invalid_previous"),
        ("later message without previous", { (o: inout JSONObject) in o["sequence"] = .integer(3) }, "invalid_previous"),
        ("previous not canonical base64url", { (o: inout JSONObject) in o["sequence"] = .integer(1); o["previous"] = .string(String(repeating: "A", count: 42) + "B") }, "invalid_field"),
        ("previous wrong type", { (o: inout JSONObject) in o["sequence"] = .integer(1); o["previous"] = .integer(7) }, "invalid_field"),
        ("empty type", { (o: inout JSONObject) in o["type"] = .string("") }, "invalid_type"),
        ("type of 65 chars", { (o: inout JSONObject) in o["type"] = .string(String(repeating: "t", count: 65)) }, "invalid_type"),
        ("type with space", { (o: inout JSONObject) in o["type"] = .string("my type") }, "invalid_type"),
        ("type non-ASCII", { (o: inout JSONObject) in o["type"] = .string("pöst") }, "invalid_type"),
        ("audience empty", { (o: inout JSONObject) in o["audience"] = .string("") }, "invalid_audience"),
        ("audience no prefix", { (o: inout JSONObject) in o["audience"] = .string("everyone") }, "invalid_audience"),
        ("audience bad direct", { (o: inout JSONObject) in o["audience"] = .string("direct:nope") }, "invalid_audience"),
        ("audience bad group", { (o: inout JSONObject) in o["audience"] = .string("group:short") }, "invalid_audience"),
        ("audience empty suffix", { (o: inout JSONObject) in o["audience"] = .string("future:") }, "invalid_audience"),
        ("content padded", { (o: inout JSONObject) in o["content_enc"] = .string("AQIDBA==") }, "invalid_field"),
        ("content non-canonical bits", { (o: inout JSONObject) in o["content_enc"] = .string("AQIDBB") }, "invalid_field"),
        ("content standard alphabet", { (o: inout JSONObject) in o["content_enc"] = .string("ab+/") }, "invalid_field"),
        ("content not a string", { (o: inout JSONObject) in o["content_enc"] = .array([]) }, "invalid_field"),
    ]

    @Test func everyFieldRuleIsEnforced() {
        for (name, mutate, code) in Self.fieldRules {
            var object = FeedFixtures.fields()
            mutate(&object)
            let bytes = FeedFixtures.signRaw(object)
            #expect(FeedFixtures.code { _ = try Envelope.parse(bytes) } == code, "\(name)")
        }
    }

    @Test func signatureRules() {
        var object = F.fields()
        object["signature"] = .string(Base64URL.encode([UInt8](repeating: 1, count: 63)))
        #expect(F.code { _ = try Envelope.parse(CanonicalJSON.serialize(object)) } == "invalid_field")
        object["signature"] = .string(Base64URL.encode([UInt8](repeating: 1, count: 64)) + "==")
        #expect(F.code { _ = try Envelope.parse(CanonicalJSON.serialize(object)) } == "invalid_field")
        object["signature"] = nil
        #expect(F.code { _ = try Envelope.parse(CanonicalJSON.serialize(object)) } == "missing_field")
    }

    @Test func unknownAudiencePrefixIsKept() throws {
        let envelope = try Envelope.parseV1(F.signRaw(F.fields(audience: "broadcast:v2-channel")))
        #expect(envelope.audience == .unknown("broadcast:v2-channel"))
        #expect(envelope.audience.description == "broadcast:v2-channel")
    }

    @Test func knownAudiencesParse() throws {
        #expect(try Audience("self") == .selfOnly)
        #expect(try Audience("contacts") == .contacts)
        #expect(try Audience("direct:\(F.bob.feedID)") == .direct(F.bob.feedID))
        let group = Base64URL.encode([UInt8](repeating: 9, count: 32))
        #expect(try Audience("group:\(group)") == .group(group))
        #expect(!Audience.selfOnly.isReplicated)
    }

    @Test func nonCanonicalBytesAreRejectedNotRecanonicalized() throws {
        let envelope = F.chain(1)[0]
        let text = String(decoding: envelope.canonicalBytes, as: UTF8.self)
        let spaced = Array(text.replacingOccurrences(of: ",\"feed_id\"", with: ", \"feed_id\"").utf8)
        #expect(F.code { _ = try Envelope.parse(spaced) } == "not_canonical")
        let reordered = Array(("{\"version\":1," + text.dropFirst().replacingOccurrences(of: ",\"version\":1", with: "")).utf8)
        #expect(F.code { _ = try Envelope.parse(reordered) } == "not_canonical")
        let escapedSlash = Array(text.replacingOccurrences(of: "\"post\"", with: "\"p\\u006fst\"").utf8)
        #expect(F.code { _ = try Envelope.parse(escapedSlash) } == "not_canonical")
    }

    @Test func malformedAndOversizedInput() {
        #expect(F.code { _ = try Envelope.parse(Array("{\"version\":1".utf8)) } == "malformed_json")
        #expect(F.code { _ = try Envelope.parse(Array("[1]".utf8)) } == "not_an_object")
        #expect(F.code { _ = try Envelope.parse(Array("{\"version\":1.5}".utf8)) } == "malformed_json")
        #expect(F.code { _ = try Envelope.parse([UInt8](repeating: 0x20, count: FeedLimits.maxEnvelopeBytes + 1)) } == "too_large")
        #expect(F.code { _ = try Envelope.parse([0xFF, 0xFE]) } == "malformed_json")
    }

    @Test func signingRefusesWhatReceiversWouldReject() {
        #expect(F.code { _ = try Envelope.sign(UnsignedEnvelope(sequence: 1, timestamp: 0, previous: nil, type: "post", audience: .contacts, content: [1]), with: F.alice) } == "invalid_previous")
        #expect(F.code { _ = try Envelope.sign(UnsignedEnvelope(sequence: 0, timestamp: 0, previous: nil, type: "bad type", audience: .contacts, content: [1]), with: F.alice) } == "invalid_type")
    }
}
