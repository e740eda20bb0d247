import KithCanonical
import PropertyBased
import Testing

/// Strict unpadded base64url: RFC 4648 vectors, every rejection rule, round trips.
@Suite struct Base64URLTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) throws {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
        #expect(Base64URL.encodedLength(of: plain.utf8.count) == encoded.count)
    }

    @Test func usesTheURLSafeAlphabet() throws {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.encode([0xF8, 0x00, 0x00]) == "-AAA")
        #expect(try Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(try Base64URL.decode(utf8: Array("____".utf8)) == [0xFF, 0xFF, 0xFF])
    }

    @Test func paddingIsRejected() {
        #expect(throws: Base64URLError.padding(offset: 2)) { try Base64URL.decode("Zg==") }
        #expect(throws: Base64URLError.padding(offset: 3)) { try Base64URL.decode("Zm8=") }
        #expect(throws: Base64URLError.padding(offset: 0)) { try Base64URL.decode("====") }
    }

    @Test(arguments: [("Zm+v", 2), ("Zm/v", 2), ("Zm9 ", 3), ("Zm9\n", 3), ("\u{E9}A", 0), ("Zm.v", 2), ("Z*", 1)])
    func foreignCharactersAreRejected(text: String, offset: Int) {
        #expect(throws: Base64URLError.invalidCharacter(offset: offset)) { try Base64URL.decode(text) }
    }

    @Test(arguments: ["Z", "Zm9vY", "Zm9vYmFyZ", "AAAAA"])
    func lengthOneModFourIsRejected(text: String) {
        #expect(throws: Base64URLError.invalidLength(text.count)) { try Base64URL.decode(text) }
    }

    @Test(arguments: ["Zh", "Zm9", "AB", "AAB", "Zm9vYh", "_-"])
    func nonZeroTrailingBitsAreRejected(text: String) {
        #expect(throws: Base64URLError.nonCanonicalTrailingBits) { try Base64URL.decode(text) }
    }

    @Test func wrongExpectedLengthIsRejected() throws {
        #expect(throws: Base64URLError.wrongDecodedLength(expected: 2, actualCharacters: 4)) {
            try Base64URL.decode("Zm9v", expectedLength: 2)
        }
        #expect(throws: Base64URLError.wrongDecodedLength(expected: 32, actualCharacters: 42)) {
            try Base64URL.decode(String(repeating: "A", count: 42), expectedLength: 32)
        }
        #expect(try Base64URL.decode(String(repeating: "A", count: 43), expectedLength: 32) == [UInt8](repeating: 0, count: 32))
        #expect(try Base64URL.decode("Zm9v", expectedLength: 3) == Array("foo".utf8))
    }

    @Test func errorsDescribeThemselves() {
        let errors: [Base64URLError] = [
            .padding(offset: 1), .invalidCharacter(offset: 1), .invalidLength(5), .nonCanonicalTrailingBits,
            .wrongDecodedLength(expected: 32, actualCharacters: 4),
        ]
        #expect(errors.allSatisfy { !$0.description.isEmpty })
        #expect(Base64URLError.wrongDecodedLength(expected: 32, actualCharacters: 4).description.contains("43"))
    }

    @Test func randomBytesRoundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...80)) { bytes in
            let text = Base64URL.encode(bytes)
            #expect(text.count == Base64URL.encodedLength(of: bytes.count))
            #expect(!text.contains("="))
            #expect((try? Base64URL.decode(text, expectedLength: bytes.count)) == bytes)
        }
    }

    @Test func everyAcceptedStringIsTheUniqueEncoding() async {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let character = Gen<Character?>.element(of: alphabet).map { $0 ?? "A" }
        await propertyCheck(count: 500, input: character.array(of: 0...12)) { characters in
            let text = String(characters)
            if let decoded = try? Base64URL.decode(text) {
                #expect(Base64URL.encode(decoded) == text)
            } else {
                // Only impossible lengths or non-zero trailing bits can fail on alphabet characters,
                // and neither exists for whole 4-character groups.
                #expect(text.count % 4 != 0)
            }
        }
    }
}

@Suite struct Base64URLCanonicalCheckTests {
    @Test func isCanonicalAgreesWithDecode() {
        for text in ["", "AQ", "AR", "AQI", "AQJ", "AQID", "AQIDBA", "A", "AQ==", "a+b/", "ab_-", "_w", "_x"] {
            let decodes = (try? Base64URL.decode(text)) != nil
            #expect(Base64URL.isCanonical(utf8: Array(text.utf8)) == decodes, "\(text)")
        }
    }
}

/// The buffer-based encoder and decoder agree with a bit-by-bit reference on every length.
@Suite struct Base64URLReferenceTests {
    private static let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Plain RFC 4648 section 5 without padding, six bits at a time.
    private static func reference(_ bytes: [UInt8]) -> String {
        var bits: [UInt8] = []
        for byte in bytes { for shift in (0..<8).reversed() { bits.append((byte >> UInt8(shift)) & 1) } }
        var output: [UInt8] = []
        var index = 0
        while index < bits.count {
            var value = 0
            for offset in 0..<6 { value = value << 1 | Int(index + offset < bits.count ? bits[index + offset] : 0) }
            output.append(symbols[value])
            index += 6
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func encodingMatchesTheReferenceAndRoundTrips() async {
        await propertyCheck(count: 300, input: Gen.uint8(in: 0...255).array(of: 0...100)) { bytes in
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.reference(bytes))
            #expect(bytes.withUnsafeBytes { Base64URL.encode($0) } == encoded)
            #expect(Base64URL.encode(bytes.lazy.map { $0 }) == encoded)  // a non-contiguous sequence
            #expect(encoded.utf8.count == Base64URL.encodedLength(of: bytes.count))
            #expect((try? Base64URL.decode(encoded)) == bytes)
            #expect((try? Base64URL.decode(utf8: Array(encoded.utf8), expectedLength: bytes.count)) == bytes)
        }
    }
}
