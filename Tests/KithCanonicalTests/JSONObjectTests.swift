import KithCanonical
import Testing

/// `JSONObject`: unique byte-compared keys, ordered members, editing.
@Suite struct JSONObjectTests {
    @Test func emptyObject() {
        let object = JSONObject()
        #expect(object.count == 0)
        #expect(object.keys.isEmpty)
        #expect(object.members.isEmpty)
    }

    @Test func membersKeepInsertionOrder() throws {
        let object = try JSONObject(members: [("z", 1), ("a", 2), ("m", 3)])
        #expect(object.keys == ["z", "a", "m"])
        #expect(object.members.map(\.value) == [1, 2, 3])
        #expect(object.count == 3)
    }

    @Test func duplicateMembersAreRejected() {
        #expect(throws: CanonicalJSONError.duplicateKey("a")) { try JSONObject(members: [("a", 1), ("b", 2), ("a", 3)]) }
        let many = (0..<50).map { ("k\($0)", JSONValue.integer(Int64($0))) } + [("k7", JSONValue.null)]
        #expect(throws: CanonicalJSONError.duplicateKey("k7")) { try JSONObject(members: many) }
        #expect(throws: Never.self) { try JSONObject(members: Array(many.dropLast())) }
    }

    @Test func canonicallyEquivalentKeysAreDistinct() throws {
        var object = try JSONObject(members: [("\u{C5}", 1), ("A\u{30A}", 2)])
        #expect(object.count == 2)
        #expect(object["\u{C5}"] == 1)
        #expect(object["A\u{30A}"] == 2)
        object["A\u{30A}"] = 3
        #expect(object["\u{C5}"] == 1)
        #expect(object.count == 2)
        object["\u{C5}"] = nil
        #expect(object.keys.map { Array($0.utf8) } == [[0x41, 0xCC, 0x8A]])
    }

    @Test func subscriptReplacesAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 10
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 10)
        object["c"] = nil
        #expect(object.count == 2)
        object["c"] = 3
        #expect(object.keys == ["a", "b", "c"])
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["b"] == nil)
    }

    @Test func removingReturnsACopy() {
        let object: JSONObject = ["signature": "s", "body": 1]
        let unsigned = object.removing("signature")
        #expect(unsigned.keys == ["body"])
        #expect(object.count == 2)
        #expect(object.removing("absent") == object)
    }

    @Test func equalityIgnoresMemberOrder() throws {
        let forward = try JSONObject(members: [("a", 1), ("b", 2)])
        let backward = try JSONObject(members: [("b", 2), ("a", 1)])
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != (try JSONObject(members: [("a", 1), ("b", 3)])))
        #expect(forward != (try JSONObject(members: [("a", 1), ("c", 2)])))
        #expect(forward != (try JSONObject(members: [("a", 1)])))
        #expect(try JSONObject(members: [("\u{C5}", 1)]) != (try JSONObject(members: [("A\u{30A}", 1)])))
    }

    @Test func equalityOfLargeObjectsIgnoresMemberOrder() throws {
        let members = (0..<40).map { ("key\($0)", JSONValue.integer(Int64($0))) }
        let forward = try JSONObject(members: members)
        let backward = try JSONObject(members: members.reversed())
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        var changed = backward
        changed["key7"] = 8
        #expect(forward != changed)
        changed["key7"] = nil
        changed["key\u{301}"] = 7
        #expect(forward != changed)
    }
}
