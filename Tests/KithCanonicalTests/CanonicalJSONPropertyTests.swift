import KithCanonical
import PropertyBased
import Testing

/// Round-trip and robustness properties over random trees and random byte mutations.
@Suite struct CanonicalJSONPropertyTests {
    @Test func serializeThenParseCanonicalRoundTrips() async {
        await propertyCheck(count: 500, input: JSONValueGenerator.tree) { value in
            let bytes = CanonicalJSON.serialize(value)
            let parsed = try #require(try? CanonicalJSON.parseCanonical(bytes))
            #expect(parsed == value)
            #expect(parsed.hashValue == value.hashValue)
            #expect(CanonicalJSON.serialize(parsed) == bytes)
        }
    }

    @Test func serializeIsIdempotent() async {
        await propertyCheck(count: 300, input: JSONValueGenerator.tree) { value in
            let once = CanonicalJSON.serialize(value)
            let twice = (try? CanonicalJSON.parse(once)).map(CanonicalJSON.serialize)
            #expect(twice == once)
        }
    }

    @Test func stringsRoundTripByteForByte() async {
        await propertyCheck(count: 500, input: JSONValueGenerator.string) { text in
            let parsed = try? CanonicalJSON.parseCanonical(CanonicalJSON.serialize(.string(text)))
            #expect(parsed?.stringValue.map { Array($0.utf8) } == Array(text.utf8))
        }
    }

    @Test func keyOrderMatchesSwiftUTF16Ordering() async {
        await propertyCheck(count: 300, input: JSONValueGenerator.string.array(of: 0...8)) { keys in
            var object = JSONObject()
            for key in keys { object[key] = .null }
            let parsed = try? CanonicalJSON.parseCanonical(CanonicalJSON.serialize(object))
            let expected = object.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            #expect(parsed?.objectValue?.keys.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
        }
    }

    @Test func memberOrderNeverChangesTheBytes() async {
        await propertyCheck(count: 200, input: JSONValueGenerator.tree, JSONValueGenerator.seed) { value, seed in
            var source = SplitMix64(seed: seed)
            let shuffled = Self.shuffleMembers(value, using: &source)
            #expect(shuffled == value)
            #expect(CanonicalJSON.serialize(shuffled) == CanonicalJSON.serialize(value))
        }
    }

    @Test func insertedWhitespaceParsesToTheSameValueButIsNotCanonical() async {
        await propertyCheck(count: 200, input: JSONValueGenerator.tree, JSONValueGenerator.seed) { value, seed in
            var source = SplitMix64(seed: seed)
            let canonical = CanonicalJSON.serialize(value)
            let spaced = Self.insertWhitespace(into: canonical, using: &source)
            #expect((try? CanonicalJSON.parse(spaced)) == value)
            if spaced != canonical {
                #expect(throws: CanonicalJSONError.self) { try CanonicalJSON.parseCanonical(spaced) }
            }
        }
    }

    @Test func mutatedBytesNeverCrashAndAcceptedInputIsExact() async {
        await propertyCheck(count: 1000, input: JSONValueGenerator.tree, JSONValueGenerator.seed) { value, seed in
            var source = SplitMix64(seed: seed)
            var bytes = CanonicalJSON.serialize(value)
            for _ in 0...source.next(below: 3) {
                switch source.next(below: 3) {
                case 0 where !bytes.isEmpty: bytes[source.next(below: bytes.count)] = UInt8(truncatingIfNeeded: source.next())
                case 1 where !bytes.isEmpty: bytes.remove(at: source.next(below: bytes.count))
                default: bytes.insert(UInt8(truncatingIfNeeded: source.next()), at: source.next(below: bytes.count + 1))
                }
            }
            if let accepted = try? CanonicalJSON.parseCanonical(bytes) {
                #expect(CanonicalJSON.serialize(accepted) == bytes)
            }
            if let parsed = try? CanonicalJSON.parse(bytes) {
                let canonical = CanonicalJSON.serialize(parsed)
                #expect((try? CanonicalJSON.parseCanonical(canonical)) == parsed)
            }
        }
    }

    static func shuffleMembers(_ value: JSONValue, using source: inout SplitMix64) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { shuffleMembers($0, using: &source) })
        case .object(let object):
            var members = object.members.map { ($0.key, shuffleMembers($0.value, using: &source)) }
            members.shuffle(using: &source)
            return (try? JSONObject(members: members)).map(JSONValue.object) ?? .null
        default:
            return value
        }
    }

    /// Inserts whitespace only between tokens (outside strings).
    static func insertWhitespace(into bytes: [UInt8], using source: inout SplitMix64) -> [UInt8] {
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        let opening: Set<UInt8> = [0x5B, 0x7B, 0x2C, 0x3A]  // [ { , :
        let closing: Set<UInt8> = [0x5D, 0x7D, 0x2C, 0x3A]  // ] } , :
        var output: [UInt8] = []
        var inString = false
        var escaped = false
        var previous: UInt8? = nil
        for byte in bytes {
            let atTokenBoundary = previous == nil || previous.map(opening.contains) == true || closing.contains(byte)
            if !inString, atTokenBoundary, source.next(below: 3) == 0 { output.append(whitespace[source.next(below: 4)]) }
            previous = inString ? nil : byte
            output.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 {
                inString = true
            }
        }
        if source.next(below: 2) == 0 { output.append(0x0A) }
        return output
    }
}
