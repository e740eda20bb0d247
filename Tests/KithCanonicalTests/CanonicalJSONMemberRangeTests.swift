import KithCanonical
import PropertyBased
import Testing

/// `parseCanonical(_:limits:locatingMember:)` and `removingMember(_:from:)`: cutting a member out of
/// canonical bytes equals re-serializing the object without it.
@Suite struct CanonicalJSONMemberRangeTests {
    private func locate(_ text: String, _ key: String) throws -> Range<Int>? {
        try CanonicalJSON.parseCanonical(Array(text.utf8), locatingMember: key).memberRange
    }

    private func cut(_ text: String, _ key: String) throws -> String? {
        guard let range = try locate(text, key) else { return nil }
        return String(decoding: CanonicalJSON.removingMember(range, from: Array(text.utf8)), as: UTF8.self)
    }

    @Test func theRangeSpansKeyThroughValue() throws {
        let text = #"{"a":1,"sig":"xyz","z":[true]}"#
        let range = try #require(try locate(text, "sig"))
        #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == #""sig":"xyz""#)
    }

    @Test(arguments: [
        (#"{"a":1,"sig":"x","z":2}"#, #"{"a":1,"z":2}"#),
        (#"{"sig":"x","z":2}"#, #"{"z":2}"#),
        (#"{"a":1,"sig":"x"}"#, #"{"a":1}"#),
        (#"{"sig":"x"}"#, "{}"),
        (#"{"a":{"sig":1},"sig":{"b":[1,"sig"]}}"#, #"{"a":{"sig":1}}"#),
    ])
    func removingTheMemberKeepsTheRestCanonical(text: String, expected: String) throws {
        #expect(try cut(text, "sig") == expected)
    }

    @Test func onlyTopLevelMembersAreLocated() throws {
        #expect(try locate(#"{"a":{"sig":1},"b":2}"#, "sig") == nil)
        #expect(try locate(#"[{"sig":1}]"#, "sig") == nil)
        #expect(try locate(#""sig""#, "sig") == nil)
        #expect(try locate(#"{"sig2":1}"#, "sig") == nil)
    }

    @Test func keysAreMatchedByBytes() throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K" but a different key.
        #expect(try locate("{\"\u{212A}\":1}", "K") == nil)
        #expect(try locate("{\"\u{212A}\":1}", "\u{212A}") != nil)
    }

    @Test func nonCanonicalInputStillThrows() {
        #expect(throws: CanonicalJSONError.notCanonical(offset: 2)) {
            try CanonicalJSON.parseCanonical(Array(#"{"b":1,"a":2}"#.utf8), locatingMember: "a")
        }
    }

    @Test func aRangeOutsideTheBytesLeavesThemUnchanged() {
        let bytes = Array(#"{"a":1}"#.utf8)
        #expect(CanonicalJSON.removingMember(0..<3, from: bytes) == bytes)
        #expect(CanonicalJSON.removingMember(1..<7, from: bytes) == bytes)
        #expect(CanonicalJSON.removingMember(1..<6, from: bytes) == Array("{}".utf8))
    }

    @Test func cuttingEqualsReserializingWithoutTheMember() async {
        await propertyCheck(count: 300, input: JSONValueGenerator.tree, JSONValueGenerator.seed) { value, seed in
            guard case .object(let object) = value, !object.isEmpty else { return }
            let key = object.keys[Int(seed % UInt64(object.count))]
            let bytes = CanonicalJSON.serialize(object)
            guard let parsed = try? CanonicalJSON.parseCanonical(bytes, locatingMember: key),
                  let range = parsed.memberRange else {
                Issue.record("member \(key) not located")
                return
            }
            #expect(parsed.value == value)
            #expect(CanonicalJSON.removingMember(range, from: bytes) == CanonicalJSON.serialize(object.removing(key)))
        }
    }
}
