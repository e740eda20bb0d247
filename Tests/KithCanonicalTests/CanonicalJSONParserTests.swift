import Foundation
import KithCanonical
import Testing

/// `CanonicalJSON.parse`: what it accepts and every rejection rule.
@Suite struct CanonicalJSONParserTests {
    private func error(_ text: String, limits: JSONLimits = .default) -> CanonicalJSONError? {
        caughtError { () throws(CanonicalJSONError) in try parse(text, limits: limits) }
    }

    private func error(bytes: [UInt8], limits: JSONLimits = .default) -> CanonicalJSONError? {
        caughtError { () throws(CanonicalJSONError) in try CanonicalJSON.parse(bytes, limits: limits) }
    }

    // MARK: Accepted input

    @Test func scalarsAtTopLevel() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("0") == .integer(0))
        #expect(try parse("-17") == .integer(-17))
        #expect(try parse("\"hi\"") == .string("hi"))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object(JSONObject()))
    }

    @Test func insignificantWhitespaceIsAccepted() throws {
        let value = try parse(" \t\r\n{ \"a\" :\n[ 1 , true ,null ] ,\"b\"\t:\r{ } } \n")
        #expect(value == ["a": [1, true, nil], "b": .object(JSONObject())])
    }

    @Test func objectMembersKeepParseOrder() throws {
        let object = try #require(try parse(#"{"b":1,"a":2,"c":3}"#).objectValue)
        #expect(object.keys == ["b", "a", "c"])
    }

    @Test func safeIntegerBoundsAreAccepted() throws {
        #expect(try parse("9007199254740991") == .integer(9_007_199_254_740_991))
        #expect(try parse("-9007199254740991") == .integer(-9_007_199_254_740_991))
    }

    @Test func negativeZeroParsesAsZero() throws {
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("[-0]") == .array([.integer(0)]))
    }

    @Test func escapesDecode() throws {
        let value = try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude02\u0000""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tA\u{E9}\u{20AC}\u{1F602}\u{0}"))
    }

    @Test func rawUTF8IsKeptByteForByte() throws {
        let text = "A\u{30A} \u{C5} \u{FB33} \u{1F602} \u{7F} \u{10FFFF}"
        let value = try parse("\"\(text)\"")
        #expect(value.stringValue.map { Array($0.utf8) } == Array(text.utf8))
    }

    @Test func combiningSequencesAreNotNormalised() throws {
        let decomposed = try #require(try parse(#""A\u030a""#).stringValue)
        #expect(Array(decomposed.utf8) == [0x41, 0xCC, 0x8A])
        #expect(try parse(#""A\u030a""#) != parse(#""\u00c5""#))
    }

    @Test func acceptsDataSlicesAndNonContiguousCollections() throws {
        let data = Data("[1,2]".utf8)
        #expect(try CanonicalJSON.parse(data) == [1, 2])
        let slice = utf8("xx[3]yy")[2..<5]
        #expect(try CanonicalJSON.parse(slice) == [3])
        let lazy = utf8("[4]").lazy.map { $0 }
        #expect(try CanonicalJSON.parse(lazy) == [4])
        #expect(try CanonicalJSON.parseCanonical(lazy) == [4])
    }

    // MARK: Numbers

    @Test(arguments: ["1.0", "1e2", "1E2", "1e+2", "-1.5", "0.5", "1e-2", "0e0", "[1.0]", "{\"a\":2.5}", "333333333.33333329"])
    func fractionsAndExponentsAreNonInteger(text: String) {
        #expect(error(text)?.code == "non_integer")
    }

    @Test func nonIntegerReportsTheNumberOffset() {
        #expect(error("[1, 2.0]") == .nonInteger(offset: 4))
    }

    @Test(arguments: ["9007199254740992", "-9007199254740992", "99999999999999999999999999", "[18446744073709551616]"])
    func integersBeyondTwoToThe53AreOutOfRange(text: String) {
        #expect(error(text)?.code == "integer_out_of_range")
    }

    @Test func leadingZerosAreRejected() {
        #expect(error("01") == .leadingZero(offset: 0))
        #expect(error("-01") == .leadingZero(offset: 0))
        #expect(error("[00]") == .leadingZero(offset: 1))
    }

    @Test func malformedNumbersAreRejected() {
        #expect(error("-") == .unexpectedEnd)
        #expect(error("-a") == .unexpectedByte(offset: 1, byte: UInt8(ascii: "a")))
        #expect(error("+1") == .unexpectedByte(offset: 0, byte: UInt8(ascii: "+")))
        #expect(error("[.5]") == .unexpectedByte(offset: 1, byte: UInt8(ascii: ".")))
    }

    // MARK: Strings

    @Test(arguments: [
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong 3-byte
        ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1),  // overlong 4-byte
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-8 encoded surrogate U+D800
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
        ([0x22, 0x61, 0x80, 0x22], 2),  // lone continuation byte
        ([0x22, 0xE2, 0x82, 0x22], 1),  // truncated sequence
        ([0x22, 0xFF, 0x22], 1),
        ([0x22, 0xC3], 1),  // truncated at end of input
        ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3),  // invalid after an escape
    ] as [([UInt8], Int)])
    func invalidUTF8IsRejected(bytes: [UInt8], offset: Int) {
        #expect(error(bytes: bytes) == .invalidUTF8(offset: offset))
    }

    @Test func invalidUTF8OutsideStringsIsAnUnexpectedByte() {
        #expect(error(bytes: [0xEF, 0xBB, 0xBF, 0x31]) == .unexpectedByte(offset: 0, byte: 0xEF))
    }

    @Test(arguments: [
        (#""\ud800""#, 1), (#""\udc00""#, 1), (#""\uDBFF""#, 1), (#""ab\ud800\u0041""#, 3),
        (#""\ud800x""#, 1), (#""\ud800\ud800""#, 1), (#""\ude02\ud83d""#, 1), (#""\ud800\n""#, 1),
        (#"{"\ud83d":1}"#, 2),
    ])
    func loneSurrogatesAreRejected(text: String, offset: Int) {
        #expect(error(text) == .loneSurrogate(offset: offset))
    }

    @Test func controlCharactersMustBeEscaped() throws {
        for byte in UInt8(0)..<0x20 {
            #expect(error(bytes: [0x22, 0x61, byte, 0x22]) == .controlCharacterInString(offset: 2))
            #expect(error(bytes: [0x22, 0x5C, 0x74, byte, 0x22]) == .controlCharacterInString(offset: 3))
        }
        #expect(try parse("\"\u{7F}\"") == .string("\u{7F}"))
    }

    @Test(arguments: [#""\x""#, #""\U0041""#, #""\u12G4""#, #""\u004""#, #""\'""#, #""\a""#, #""\ ""#])
    func invalidEscapesAreRejected(text: String) {
        let failure = error(text)
        #expect(failure == .invalidEscape(offset: 1) || failure == .unexpectedEnd, "\(text)")
    }

    @Test func truncatedEscapesAreUnexpectedEnd() {
        #expect(error(#""\"#) == .unexpectedEnd)
        #expect(error(#""\u00"#) == .unexpectedEnd)
        #expect(error(#""abc"#) == .unexpectedEnd)
    }

    // MARK: Objects and structure

    @Test func exactDuplicateKeysAreRejected() {
        #expect(error(#"{"a":1,"a":2}"#) == .duplicateKey("a"))
        #expect(error(#"{"a":1,"b":2,"a":3}"#) == .duplicateKey("a"))
        #expect(error(#"{"b":1,"a":2,"b":3}"#) == .duplicateKey("b"))
    }

    @Test func duplicateKeysSpelledWithEscapesAreRejected() {
        #expect(error(#"{"a":1,"\u0061":2}"#) == .duplicateKey("a"))
        #expect(error(#"{"\u00e9":1,"é":2}"#) == .duplicateKey("é"))
        #expect(error(#"{"😂":1,"\ud83d\ude02":2}"#) == .duplicateKey("😂"))
    }

    @Test func duplicateKeysInLargeObjectsAreRejected() {
        let sortedMembers = (0..<40).map { "\"k\(1000 + $0)\":\($0)" }
        #expect(error("{" + (sortedMembers + ["\"k1005\":0"]).joined(separator: ",") + "}") == .duplicateKey("k1005"))
        let unsorted = sortedMembers.reversed() + ["\"k1039\":0"]
        #expect(error("{" + unsorted.joined(separator: ",") + "}") == .duplicateKey("k1039"))
        let distinct = sortedMembers.reversed().joined(separator: ",")
        #expect(error("{" + distinct + "}") == nil)
    }

    @Test func canonicallyEquivalentKeysAreDistinctAndBothKept() throws {
        let object = try #require(try parse(#"{"\u00C5":1,"A\u030A":2}"#).objectValue)
        #expect(object.count == 2)
        #expect(object["\u{C5}"] == .integer(1))
        #expect(object["A\u{30A}"] == .integer(2))
        let raw = try #require(try parse("{\"\u{C5}\":1,\"A\u{30A}\":2}").objectValue)
        #expect(raw.count == 2)
    }

    @Test func duplicateKeysInNestedObjectsAreRejected() {
        #expect(error(#"[{"x":{"y":1,"y":1}}]"#) == .duplicateKey("y"))
    }

    @Test(arguments: [
        ("1 2", 2), ("{}x", 2), ("[]]", 2), ("\"a\"\"b\"", 3), ("truex", 4), ("0 0", 2), ("null,", 4),
    ])
    func trailingDataIsRejected(text: String, offset: Int) {
        #expect(error(text) == .trailingData(offset: offset))
    }

    @Test(arguments: ["", "   ", "[", "[1", "[1,", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "tru", "nul", "f"])
    func truncatedInputIsUnexpectedEnd(text: String) {
        #expect(error(text) == .unexpectedEnd)
    }

    @Test(arguments: [
        ("[1,]", 3), ("{,}", 1), ("{\"a\" 1}", 5), ("[1 2]", 3), ("{\"a\":1,}", 7), ("'a'", 0), ("{a:1}", 1),
        ("[nulL]", 4), ("{\"a\":1 \"b\":2}", 7), ("[1:2]", 2), ("{\"a\":1]", 6), ("NaN", 0), ("Infinity", 0),
    ])
    func malformedStructureIsUnexpectedByte(text: String, offset: Int) {
        guard case .unexpectedByte(let actual, _)? = error(text) else {
            Issue.record("expected unexpectedByte for \(text), got \(String(describing: error(text)))")
            return
        }
        #expect(actual == offset, "\(text)")
    }

    // MARK: Limits

    @Test func inputSizeLimit() {
        let limits = JSONLimits(maxBytes: 10, maxDepth: 32, maxStringBytes: 100, maxContainerElements: 100, maxTotalValues: 100)
        #expect(error("[1,2,3,4,5]", limits: limits) == .tooLarge(11))
        #expect(error("[1,2,3,44]", limits: limits) == nil)
        #expect(error(String(repeating: " ", count: 1_048_577)) == .tooLarge(1_048_577))
    }

    @Test func depthLimit() {
        let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(error(deepest) == nil)
        let tooDeep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(error(tooDeep) == .tooDeep(offset: 32))
        let objects = String(repeating: "{\"a\":", count: 33) + "1" + String(repeating: "}", count: 33)
        #expect(error(objects) == .tooDeep(offset: 160))
        let limits = JSONLimits(maxBytes: 100, maxDepth: 2, maxStringBytes: 100, maxContainerElements: 100, maxTotalValues: 100)
        #expect(error(#"[{"a":1}]"#, limits: limits) == nil)
        #expect(error(#"[{"a":[]}]"#, limits: limits) == .tooDeep(offset: 6))
        // A hostile document nested far beyond the limit fails cleanly instead of exhausting the stack.
        #expect(error(String(repeating: "[", count: 100_000)) == .tooDeep(offset: 32))
    }

    @Test func stringLengthLimitAppliesToDecodedBytes() {
        let limits = JSONLimits(maxBytes: 1000, maxDepth: 4, maxStringBytes: 3, maxContainerElements: 100, maxTotalValues: 100)
        #expect(error(#""abc""#, limits: limits) == nil)
        #expect(error(#""abcd""#, limits: limits) == .stringTooLong(offset: 0))
        #expect(error(#"["\u0061\u0062\u0063"]"#, limits: limits) == nil)
        #expect(error(#"["\u0061\u0062\u0063\n"]"#, limits: limits) == .stringTooLong(offset: 1))
        #expect(error("\"\u{20AC}\u{20AC}\"", limits: limits) == .stringTooLong(offset: 0))
        #expect(error(#"{"abcd":1}"#, limits: limits) == .stringTooLong(offset: 1))
    }

    @Test func containerElementLimit() {
        let limits = JSONLimits(maxBytes: 1000, maxDepth: 4, maxStringBytes: 100, maxContainerElements: 3, maxTotalValues: 100)
        #expect(error("[1,2,3]", limits: limits) == nil)
        #expect(error("[1,2,3,4]", limits: limits) == .tooManyElements(offset: 7))
        #expect(error(#"{"a":1,"b":2,"c":3}"#, limits: limits) == nil)
        #expect(error(#"{"a":1,"b":2,"c":3,"d":4}"#, limits: limits) == .tooManyElements(offset: 19))
    }

    @Test func totalValueLimit() {
        let limits = JSONLimits(maxBytes: 1000, maxDepth: 4, maxStringBytes: 100, maxContainerElements: 100, maxTotalValues: 3)
        #expect(error("[1,2]", limits: limits) == nil)
        #expect(error("[1,2,3]", limits: limits) == .tooManyElements(offset: 5))
        #expect(error("[[],[[]]]", limits: limits) == .tooManyElements(offset: 5))
    }

    @Test func defaultLimits() {
        let limits = JSONLimits.default
        #expect(limits.maxBytes == 1_048_576)
        #expect(limits.maxDepth == 32)
        #expect(limits.maxStringBytes == 262_144)
        #expect(limits.maxContainerElements == 10_000)
        #expect(limits.maxTotalValues == 100_000)
        #expect(JSONLimits.maxSafeInteger == (1 << 53) - 1)
    }
}
