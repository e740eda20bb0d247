import Foundation
import KithCanonical
import KithTestSupport
import Testing

/// The RFC 8785 test vectors from cyberphone/json-canonicalization (Tests/Vectors/jcs-rfc8785).
@Suite struct JCSVectorTests {
    static let directory = TestPaths.officialVectors.appendingPathComponent("jcs-rfc8785")

    static func file(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(relative)))
    }

    static func expectedHex(_ name: String) throws -> [UInt8] {
        let text = String(decoding: try file("outhex/\(name).txt"), as: UTF8.self)
        let digits = text.filter { $0.isHexDigit }
        return try #require(TestPaths.hex(String(digits)))
    }

    /// Files entirely inside Kith's subset: integers only.
    static let inSubset = ["arrays", "french", "unicode", "weird"]
    /// Files containing at least one float, so rejected as a whole.
    static let outOfSubset = ["structures", "values"]

    @Test func everyVectorFileIsClassified() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.appendingPathComponent("input").path)
            .map { String($0.dropLast(".json".count)) }
        #expect(Set(names) == Set(Self.inSubset + Self.outOfSubset))
    }

    @Test func outputFilesMatchTheirHex() throws {
        for name in Self.inSubset + Self.outOfSubset {
            #expect(try Self.file("output/\(name).json") == Self.expectedHex(name), "\(name)")
        }
    }

    @Test(arguments: inSubset)
    func inSubsetInputCanonicalisesToExpectedBytes(name: String) throws {
        let value = try CanonicalJSON.parse(Self.file("input/\(name).json"))
        let expected = try Self.expectedHex(name)
        #expect(CanonicalJSON.serialize(value) == expected)
        // The expected output is itself canonical and parses to the same value.
        let reparsed = try CanonicalJSON.parseCanonical(expected)
        #expect(reparsed == value)
        // The pretty-printed input is valid but not canonical.
        #expect(throws: CanonicalJSONError.self) { try CanonicalJSON.parseCanonical(Self.file("input/\(name).json")) }
    }

    @Test(arguments: outOfSubset)
    func floatFilesAreRejectedAsNonInteger(name: String) throws {
        let input = try Self.file("input/\(name).json")
        let error = caughtError { () throws(CanonicalJSONError) in try CanonicalJSON.parse(input) }
        #expect(error?.code == "non_integer")
        let output = try Self.file("output/\(name).json")
        let outputError = caughtError { () throws(CanonicalJSONError) in try CanonicalJSON.parseCanonical(output) }
        if name == "values" {
            // The canonical output still has fractions and exponents (4.5, 1e+30…).
            #expect(outputError?.code == "non_integer")
        } else {
            // structures: the only float is 56.0, which the expected output writes as 56.
            #expect(outputError == nil)
        }
    }

    @Test func structuresWithTheFloatMadeIntegerMatchesExpectedOutput() throws {
        let input = String(decoding: try Self.file("input/structures.json"), as: UTF8.self)
        #expect(input.contains("56.0"))
        let integerOnly = input.replacingOccurrences(of: "56.0", with: "56")
        let value = try parse(integerOnly)
        // The expected output already spells 56.0 as 56, so it is inside the subset.
        let expected = try Self.expectedHex("structures")
        #expect(CanonicalJSON.serialize(value) == expected)
        #expect(try CanonicalJSON.parseCanonical(expected) == value)
    }

    @Test func valuesWithoutTheFloatArrayMatchesExpectedOutput() throws {
        let input = String(decoding: try Self.file("input/values.json"), as: UTF8.self)
        let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
        let numberLines = lines.filter { $0.contains("\"numbers\"") }
        #expect(numberLines.count == 1)
        let stripped = lines.filter { !$0.contains("\"numbers\"") }.joined(separator: "\n")
        let value = try parse(stripped)

        var expected = String(decoding: try Self.expectedHex("values"), as: UTF8.self)
        let start = try #require(expected.range(of: "\"numbers\":["))
        let end = try #require(expected.range(of: "],", range: start.upperBound..<expected.endIndex))
        expected.removeSubrange(start.lowerBound..<end.upperBound)
        #expect(expected == #"{"literals":[null,true,false],"string":"€$\u000f\nA'B\"\\\\\"/"}"#)
        #expect(canonicalText(value) == expected)
        #expect(try parseCanonical(expected) == value)
    }

    @Test func valuesWithIntegerNumbersKeepsOrderingAndEscaping() throws {
        let input = String(decoding: try Self.file("input/values.json"), as: UTF8.self)
        let line = try #require(input.split(separator: "\n").first { $0.contains("\"numbers\"") })
        let integerInput = input.replacingOccurrences(
            of: String(line), with: #"  "numbers": [333333333, 1000000000000000, 4, -2, 0, -0],"#)
        let value = try parse(integerInput)
        #expect(canonicalText(value) == #"{"literals":[null,true,false],"numbers":[333333333,1000000000000000,4,-2,0,0],"string":"€$\u000f\nA'B\"\\\\\"/"}"#)
    }

    @Test func weirdKeysAreOrderedByUTF16CodeUnits() throws {
        let value = try CanonicalJSON.parse(Self.file("input/weird.json"))
        let object = try #require(value.objectValue)
        let sortedKeys = try CanonicalJSON.parseCanonical(Self.expectedHex("weird")).objectValue?.keys
        #expect(sortedKeys == ["\n", "\r", "1", "</script>", "\u{80}", "\u{F6}", "\u{20AC}", "\u{1F602}", "\u{FB33}"])
        // Code point (UTF-8 byte) order would put U+FB33 before U+1F602; UTF-16 order must not.
        let output = CanonicalJSON.serialize(object)
        let emoji = try #require(firstRange(of: Array("\u{1F602}".utf8), in: output))
        let dalet = try #require(firstRange(of: Array("\u{FB33}".utf8), in: output))
        #expect(emoji < dalet)
        #expect(object["\u{80}"] == .string("Control\u{7F}"))
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }

    @Test func unicodeIsNeverNormalised() throws {
        let value = try CanonicalJSON.parse(Self.file("input/unicode.json"))
        let text = try #require(value.objectValue?["Unnormalized Unicode"]?.stringValue)
        #expect(Array(text.utf8) == [0x41, 0xCC, 0x8A])
    }

    // MARK: es6_number_samples.json

    @Test func es6NumberSamplesInsideTheSubsetSerializeAsExpected() throws {
        let json = try JSONSerialization.jsonObject(with: Data(try Self.file("es6_number_samples.json")))
        let cases = try #require((json as? [String: Any])?["cases"] as? [[String]])
        #expect(cases.count == 7)
        var inside = 0
        var outside = 0
        for pair in cases {
            let bits = try #require(UInt64(pair[0], radix: 16))
            let number = Double(bitPattern: bits)
            let expected = pair[1]
            if number == number.rounded(), abs(number) <= Double(JSONLimits.maxSafeInteger) {
                inside += 1
                #expect(canonicalText(.integer(Int64(number))) == expected)
                #expect(try parseCanonical(expected) == .integer(Int64(number)))
            } else {
                outside += 1
                let code = caughtError { () throws(CanonicalJSONError) in try parse(expected) }?.code
                #expect(code == "non_integer" || code == "integer_out_of_range", "\(expected)")
            }
        }
        // 0 and -0.0 are in the subset; 2^53+2, 2^53+4, 1e+21 and the two fractions are not.
        #expect(inside == 2)
        #expect(outside == 5)
        #expect(caughtError { () throws(CanonicalJSONError) in try parse("9007199254740994") } == .integerOutOfRange(offset: 0))
        #expect(caughtError { () throws(CanonicalJSONError) in try parse("1e+21") } == .nonInteger(offset: 0))
    }

    // MARK: swift_foundation_divergences.json

    static func divergences() throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(try file("swift_foundation_divergences.json")))
        return try #require(json as? [String: Any])
    }

    @Test func divergenceNumbersAreOutsideTheSubsetExceptNegativeZero() throws {
        let numbers = try #require(try Self.divergences()["numbers"] as? [[String: String]])
        #expect(numbers.count == 9)
        for entry in numbers {
            let value = try #require(entry["value"])
            let jcs = try #require(entry["jcs"])
            let valueCode = caughtError { () throws(CanonicalJSONError) in try parse(value) }?.code
            #expect(valueCode == "non_integer" || valueCode == "integer_out_of_range", "\(value)")
            if jcs == "0" {
                // -0.0 has the integer spelling -0, which Kith parses as 0 and writes as JCS does.
                #expect(value == "-0.0")
                #expect(canonicalText(try parse("-0")) == jcs)
            } else {
                let jcsCode = caughtError { () throws(CanonicalJSONError) in try parse(jcs) }?.code
                #expect(jcsCode == "non_integer" || jcsCode == "integer_out_of_range", "\(jcs)")
            }
        }
    }

    @Test func divergenceStringsMatchJCS() throws {
        let strings = try #require(try Self.divergences()["strings"] as? [[String: String]])
        #expect(strings.count == 2)
        #expect(strings[0]["jcs"] == #""a/b""#)
        #expect(canonicalText(.string("a/b")) == strings[0]["jcs"])
        #expect(strings[1]["jcs"] == #""\u0001""#)
        #expect(canonicalText(.string("\u{01}")) == strings[1]["jcs"])
    }

    @Test func divergenceKeyOrderIsUTF16() throws {
        let keyOrder = try #require(try Self.divergences()["key_order"] as? [String: Any])
        let keys = try #require(keyOrder["keys"] as? [String])
        let expected = try #require(keyOrder["jcs_utf16_order"] as? [String])
        let object = try JSONObject(members: keys.enumerated().map { ($1, .integer(Int64($0))) })
        let reparsed = try CanonicalJSON.parseCanonical(CanonicalJSON.serialize(object))
        let actual = try #require(reparsed.objectValue?.keys)
        #expect(actual.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
    }

    @Test func divergenceDecodingCases() throws {
        let decoding = try #require(try Self.divergences()["decoding"] as? [[String: String]])
        #expect(decoding.count == 3)
        let inputs = try decoding.map { try #require($0["input"]) }
        #expect(caughtError { () throws(CanonicalJSONError) in try parse(inputs[0]) } == .duplicateKey("a"))
        let both = try #require(try parse(inputs[1]).objectValue)
        #expect(both.count == 2)
        #expect(both["\u{C5}"] == .integer(1))
        #expect(both["A\u{30A}"] == .integer(2))
        #expect(canonicalText(.object(both)) == "{\"A\u{30A}\":2,\"\u{C5}\":1}")
        #expect(caughtError { () throws(CanonicalJSONError) in try parse(inputs[2]) } == .loneSurrogate(offset: 6))
    }
}
