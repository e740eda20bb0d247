import KithCanonical
import Testing

/// `CanonicalJSON.serialize`: the exact RFC 8785 bytes.
@Suite struct CanonicalJSONSerializerTests {
    @Test func scalars() {
        #expect(canonicalText(.null) == "null")
        #expect(canonicalText(.bool(true)) == "true")
        #expect(canonicalText(.bool(false)) == "false")
        #expect(canonicalText(.string("")) == "\"\"")
        #expect(canonicalText(.array([])) == "[]")
        #expect(canonicalText(.object(JSONObject())) == "{}")
    }

    @Test(arguments: [
        (Int64(0), "0"), (1, "1"), (-1, "-1"), (10, "10"), (1_743_678_000, "1743678000"),
        (9_007_199_254_740_991, "9007199254740991"), (-9_007_199_254_740_991, "-9007199254740991"),
        (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"),
    ])
    func integersArePlainDecimal(value: Int64, expected: String) {
        #expect(canonicalText(.integer(value)) == expected)
    }

    @Test func everyControlCharacterIsEscapedExactlyAsJCS() {
        let short: [UInt8: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        let hex = Array("0123456789abcdef")
        for byte in UInt8(0)..<0x20 {
            let expected = short[byte] ?? "\\u00\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            #expect(canonicalText(.string(String(UnicodeScalar(byte)))) == "\"\(expected)\"")
        }
        #expect(canonicalText(.string("\u{1F}")) == #""\u001f""#)
    }

    @Test func onlyQuoteAndBackslashAreEscapedAmongPrintables() {
        #expect(canonicalText(.string("\"")) == #""\"""#)
        #expect(canonicalText(.string("\\")) == #""\\""#)
        #expect(canonicalText(.string("a/b</script>")) == #""a/b</script>""#)
        #expect(canonicalText(.string("\u{7F}\u{80}\u{2028}\u{FEFF}")) == "\"\u{7F}\u{80}\u{2028}\u{FEFF}\"")
        #expect(canonicalText(.string("€😂דּ")) == "\"€😂דּ\"")
    }

    @Test func stringsKeepTheirExactBytes() {
        #expect(CanonicalJSON.serialize(.string("A\u{30A}")) == [0x22, 0x41, 0xCC, 0x8A, 0x22])
        #expect(CanonicalJSON.serialize(.string("\u{C5}")) == [0x22, 0xC3, 0x85, 0x22])
    }

    @Test func noWhitespaceAnywhere() {
        let value: JSONValue = ["a": [1, [2, ["b": nil]]], "c": "d e"]
        #expect(canonicalText(value) == #"{"a":[1,[2,{"b":null}]],"c":"d e"}"#)
    }

    @Test func membersAreSortedRecursivelyButArraysKeepTheirOrder() {
        let value: JSONValue = ["b": [["z": 1, "y": 2], 3, 1], "a": ["d": true, "c": false]]
        #expect(canonicalText(value) == #"{"a":{"c":false,"d":true},"b":[{"y":2,"z":1},3,1]}"#)
    }

    @Test func asciiKeysSortByteWise() {
        let value: JSONValue = ["a": 1, "B": 2, "a10": 3, "a9": 4, "": 5, "aa": 6, "_": 7, "1": 8]
        #expect(canonicalText(value) == #"{"":5,"1":8,"B":2,"_":7,"a":1,"a10":3,"a9":4,"aa":6}"#)
    }

    @Test func keysSortByUTF16CodeUnitsNotCodePoints() throws {
        // U+1F602 is D83D DE02 in UTF-16, which sorts before U+E000…U+FFFF but after U+D7FF.
        let keys = ["\u{FFFF}", "\u{1F602}", "\u{E000}", "\u{D7FF}", "\u{10000}", "\u{FB33}", "\u{10FFFF}", "z"]
        let object = try JSONObject(members: keys.map { ($0, .null) })
        let reparsed = try #require(try CanonicalJSON.parseCanonical(CanonicalJSON.serialize(object)).objectValue)
        let expected = ["z", "\u{D7FF}", "\u{10000}", "\u{1F602}", "\u{10FFFF}", "\u{E000}", "\u{FB33}", "\u{FFFF}"]
        #expect(reparsed.keys.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
        // Cross-check against Swift's own UTF-16 view.
        let byUTF16 = keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
        #expect(byUTF16.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
    }

    @Test func prefixKeysSortFirst() {
        let value: JSONValue = ["abc": 1, "ab": 2, "a": 3, "\u{E9}": 4, "e\u{301}": 5]
        #expect(canonicalText(value) == "{\"a\":3,\"ab\":2,\"abc\":1,\"e\u{301}\":5,\"\u{E9}\":4}")
    }

    @Test func canonicallyEquivalentKeysAreBothWritten() throws {
        let object = try JSONObject(members: [("\u{C5}", 1), ("A\u{30A}", 2)])
        #expect(String(decoding: CanonicalJSON.serialize(object), as: UTF8.self) == "{\"A\u{30A}\":2,\"\u{C5}\":1}")
    }

    @Test func serializingAnObjectEqualsSerializingItsValue() {
        let object: JSONObject = ["x": 1, "a": ["n": nil]]
        #expect(CanonicalJSON.serialize(object) == CanonicalJSON.serialize(.object(object)))
    }

    @Test func memberOrderDoesNotChangeTheBytes() throws {
        let forward = try JSONObject(members: [("a", 1), ("b", 2), ("c", 3)])
        let backward = try JSONObject(members: [("c", 3), ("b", 2), ("a", 1)])
        #expect(CanonicalJSON.serialize(forward) == CanonicalJSON.serialize(backward))
    }

    @Test func envelopeShapedObject() {
        let envelope: JSONValue = [
            "version": 1, "feed_id": "Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4", "sequence": 42,
            "timestamp": 1_743_678_000, "previous": nil, "type": "post", "audience": "contacts",
            "content_enc": "AAAA", "signature": "BBBB",
        ]
        #expect(canonicalText(envelope) == #"{"audience":"contacts","content_enc":"AAAA","feed_id":"Zq3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4","previous":null,"sequence":42,"signature":"BBBB","timestamp":1743678000,"type":"post","version":1}"#)
    }
}
