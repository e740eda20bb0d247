import KithCanonical
import Testing

/// `CanonicalJSON.parseCanonical`: only the exact RFC 8785 bytes are accepted.
@Suite struct CanonicalJSONCanonicalCheckTests {
    private func error(_ text: String) -> CanonicalJSONError? {
        caughtError { () throws(CanonicalJSONError) in try parseCanonical(text) }
    }

    @Test(arguments: [
        "null", "true", "0", "-1", "9007199254740991", #""""#, "[]", "{}", #"{"a":[1,{"b":null}],"c":"d"}"#,
        #""\u0000\u001f\b\t\n\f\r\"\\""#, "\"/\u{7F}€😂\"", #"{"":1,"a":2}"#, "{\"\u{1F602}\":1,\"\u{FB33}\":2}",
    ])
    func canonicalInputIsAccepted(text: String) throws {
        let value = try parseCanonical(text)
        #expect(canonicalText(value) == text)
    }

    @Test(arguments: [
        (" 1", 0), ("1 ", 1), ("1\n", 1), ("[1, 2]", 3), ("{\"a\": 1}", 5), ("{ }", 1), ("[ ]", 1),
        ("{\"a\":1 }", 6), ("{\"a\" :1}", 4),
    ])
    func whitespaceIsNotCanonical(text: String, offset: Int) {
        #expect(error(text) == .notCanonical(offset: offset))
    }

    @Test func unsortedKeysAreNotCanonical() {
        #expect(error(#"{"b":1,"a":2}"#) == .notCanonical(offset: 2))
        #expect(error(#"{"a":{"d":1,"c":2}}"#) == .notCanonical(offset: 7))
        #expect(error(#"{"a10":1,"a9":2,"B":3}"#) == .notCanonical(offset: 2))
        // Code point order is not UTF-16 order.
        #expect(error("{\"\u{FB33}\":1,\"\u{1F602}\":2}") == .notCanonical(offset: 2))
    }

    @Test(arguments: [
        (#""\/""#, 1), (#""\u0041""#, 1), (#""a\u0062""#, 2), (#""\u000a""#, 2), (#""\u0008""#, 2), (#""\u001F""#, 6),
        (#""\u00e9""#, 1), (#""\u20ac""#, 1), (#""\ud83d\ude02""#, 1), (#""\u0022""#, 2), (#""\u005c""#, 2),
        (#"{"\u0061":1}"#, 2),
    ])
    func nonCanonicalEscapesAreRejected(text: String, offset: Int) {
        #expect(error(text) == .notCanonical(offset: offset))
    }

    @Test func negativeZeroIsNotCanonical() {
        #expect(error("-0") == .notCanonical(offset: 0))
        #expect(error("[1,-0]") == .notCanonical(offset: 3))
    }

    @Test func floatsAndExponentsAreRejectedAsNonInteger() {
        #expect(error("1.0") == .nonInteger(offset: 0))
        #expect(error("1e2") == .nonInteger(offset: 0))
        #expect(error("[100,1E2]") == .nonInteger(offset: 5))
    }

    @Test func parseErrorsTakePrecedence() {
        #expect(error(#"{"a":1,"a":1}"#) == .duplicateKey("a"))
        #expect(error("01") == .leadingZero(offset: 0))
        #expect(error(#""\ud800""#) == .loneSurrogate(offset: 1))
        #expect(error("[1] x") == .trailingData(offset: 4))
    }

    @Test func isCanonical() {
        #expect(CanonicalJSON.isCanonical(utf8(#"{"a":1}"#)))
        #expect(!CanonicalJSON.isCanonical(utf8(#"{"a": 1}"#)))
        #expect(!CanonicalJSON.isCanonical(utf8("{")))
    }

    @Test func everyErrorHasACodeAndSentence() {
        let errors: [CanonicalJSONError] = [
            .tooLarge(1), .tooDeep(offset: 1), .tooManyElements(offset: 1), .stringTooLong(offset: 1), .unexpectedEnd,
            .unexpectedByte(offset: 1, byte: 0x41), .invalidUTF8(offset: 1), .loneSurrogate(offset: 1),
            .controlCharacterInString(offset: 1), .invalidEscape(offset: 1), .nonInteger(offset: 1),
            .integerOutOfRange(offset: 1), .leadingZero(offset: 1), .duplicateKey("k"), .trailingData(offset: 1),
            .notCanonical(offset: 1),
        ]
        let codes = errors.map(\.code)
        #expect(Set(codes).count == errors.count)
        #expect(codes.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber } })
        #expect(CanonicalJSONError.nonInteger(offset: 3).code == "non_integer")
        #expect(CanonicalJSONError.duplicateKey("a").code == "duplicate_key")
        #expect(CanonicalJSONError.notCanonical(offset: 0).code == "not_canonical")
        #expect(errors.allSatisfy { !$0.description.isEmpty })
        #expect(CanonicalJSONError.duplicateKey("name").description.contains("name"))
    }
}
