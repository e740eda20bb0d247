import KithCanonical
import Testing

/// `JSONValue` equality, hashing and accessors.
@Suite struct JSONValueTests {
    @Test func stringsCompareByUTF8BytesNotCanonicalEquivalence() {
        #expect("\u{C5}" == "A\u{30A}")  // Swift's String ==, which Kith must not use
        #expect(JSONValue.string("\u{C5}") != JSONValue.string("A\u{30A}"))
        #expect(Set<JSONValue>([.string("\u{C5}"), .string("A\u{30A}")]).count == 2)
        #expect(JSONValue.string("abc") == JSONValue.string("abc"))
    }

    @Test func differentKindsAreDifferent() {
        let values: [JSONValue] = [.null, .bool(false), .integer(0), .string(""), .array([]), .object(JSONObject())]
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() { #expect((a == b) == (i == j)) }
        }
        #expect(Set(values).count == values.count)
    }

    @Test func arraysCompareInOrder() {
        #expect(JSONValue.array([1, 2]) != JSONValue.array([2, 1]))
        #expect(JSONValue.array([1, 2]) == [1, 2])
    }

    @Test func accessors() {
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.integer(5).integerValue == 5)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.integer(0).isNull)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue?["a"] == 1)
        let wrongKinds: [JSONValue] = [.null, .bool(true), .integer(1)]
        #expect(wrongKinds.allSatisfy { $0.stringValue == nil && $0.objectValue == nil && $0.arrayValue == nil })
        #expect(JSONValue.string("1").integerValue == nil)
        #expect(JSONValue.integer(1).boolValue == nil)
    }

    @Test func literals() {
        let value: JSONValue = ["n": nil, "b": true, "i": -3, "s": "t", "a": [1, "x"]]
        #expect(value.objectValue?["n"] == .null)
        #expect(value.objectValue?["b"] == .bool(true))
        #expect(value.objectValue?["i"] == .integer(-3))
        #expect(value.objectValue?["s"] == .string("t"))
        #expect(value.objectValue?["a"] == .array([.integer(1), .string("x")]))
    }
}
