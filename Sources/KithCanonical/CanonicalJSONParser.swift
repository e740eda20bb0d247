/// Strict recursive-descent parser for Kith's JSON subset over a contiguous byte buffer.
///
/// Besides parsing, it tracks whether the input could differ from its RFC 8785 serialization
/// (whitespace, non-canonical escapes, `-0`, unsorted keys). When nothing of the sort was seen the
/// input is provably canonical and ``CanonicalJSON/parseCanonical(_:limits:)`` can skip re-serializing.
struct CanonicalJSONParser: ~Copyable {
    private let input: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var position = 0
    private var totalValues = 0
    private var scratch: [UInt8] = []
    /// Set as soon as anything was seen that the canonical serializer would write differently.
    private(set) var mayBeNonCanonical = false
    /// A top-level member name whose byte range is recorded in ``trackedMemberRange``.
    private let trackedKey: String?
    /// Where the top-level member ``trackedKey`` lies: from its key's opening quote to the end of its value.
    private(set) var trackedMemberRange: Range<Int>?

    init(input: UnsafeBufferPointer<UInt8>, limits: JSONLimits, trackedKey: String? = nil) {
        self.input = input
        self.limits = limits
        self.trackedKey = trackedKey
    }

    /// Members reserved up front for a non-empty object (typical protocol objects have about ten).
    private static let initialObjectCapacity = 12

    // MARK: Byte classes

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let comma = UInt8(ascii: ",")
    private static let colon = UInt8(ascii: ":")
    private static let minus = UInt8(ascii: "-")
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    // MARK: Document

    /// Parses one complete document (a single value surrounded by optional whitespace).
    mutating func parseDocument() throws(CanonicalJSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < input.count { throw .trailingData(offset: position) }
        return value
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < input.count, Self.isWhitespace(input[position]) {
            position += 1
            mayBeNonCanonical = true
        }
    }

    @inline(__always)
    private func peek() throws(CanonicalJSONError) -> UInt8 {
        guard position < input.count else { throw .unexpectedEnd }
        return input[position]
    }

    private mutating func parseValue(depth: Int) throws(CanonicalJSONError) -> JSONValue {
        let byte = try peek()
        totalValues += 1
        if totalValues > limits.maxTotalValues { throw .tooManyElements(offset: position) }
        switch byte {
        case Self.quote:
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case Self.minus, Self.zero...Self.nine:
            return .integer(try parseInteger())
        default:
            throw .unexpectedByte(offset: position, byte: byte)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(CanonicalJSONError) {
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for index in 0..<count {
            let byte = try peek()
            if byte != bytes[index] { throw .unexpectedByte(offset: position, byte: byte) }
            position += 1
        }
    }

    // MARK: Containers

    private mutating func parseArray(depth: Int) throws(CanonicalJSONError) -> [JSONValue] {
        if depth > limits.maxDepth { throw .tooDeep(offset: position) }
        position += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            if elements.count >= limits.maxContainerElements { throw .tooManyElements(offset: position) }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            let byte = try peek()
            position += 1
            switch byte {
            case Self.comma:
                skipWhitespace()
            case UInt8(ascii: "]"):
                return elements
            default:
                throw .unexpectedByte(offset: position - 1, byte: byte)
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(CanonicalJSONError) -> JSONObject {
        if depth > limits.maxDepth { throw .tooDeep(offset: position) }
        position += 1  // {
        skipWhitespace()
        var members: [(key: String, value: JSONValue)] = []
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return JSONObject(validatedMembers: members)
        }
        // While keys arrive strictly increasing (the canonical case) they are necessarily distinct,
        // so the duplicate scan is only needed once the order breaks.
        members.reserveCapacity(Self.initialObjectCapacity)
        var strictlyIncreasing = true
        var seen: Set<UTF8ByteKey>? = nil
        while true {
            let byte = try peek()
            guard byte == Self.quote else { throw .unexpectedByte(offset: position, byte: byte) }
            if members.count >= limits.maxContainerElements { throw .tooManyElements(offset: position) }
            let keyStart = position
            let key = try parseString()
            if strictlyIncreasing, let last = members.last, !UTF8Bytes.utf16Less(last.key, key) {
                strictlyIncreasing = false
                mayBeNonCanonical = true
            }
            if !strictlyIncreasing {
                if members.count < JSONObject.linearScanLimit {
                    if members.contains(where: { UTF8Bytes.equal($0.key, key) }) { throw .duplicateKey(key) }
                } else {
                    if seen == nil {
                        var set = Set<UTF8ByteKey>(minimumCapacity: members.count * 2)
                        for member in members { set.insert(UTF8ByteKey(string: member.key)) }
                        seen = set
                    }
                    if seen?.insert(UTF8ByteKey(string: key)).inserted == false { throw .duplicateKey(key) }
                }
            }
            skipWhitespace()
            let separator = try peek()
            guard separator == Self.colon else { throw .unexpectedByte(offset: position, byte: separator) }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if depth == 1, let trackedKey, UTF8Bytes.equal(key, trackedKey) { trackedMemberRange = keyStart..<position }
            members.append((key: key, value: value))
            skipWhitespace()
            let next = try peek()
            position += 1
            switch next {
            case Self.comma:
                skipWhitespace()
            case UInt8(ascii: "}"):
                return JSONObject(validatedMembers: members)
            default:
                throw .unexpectedByte(offset: position - 1, byte: next)
            }
        }
    }

    // MARK: Numbers

    private mutating func parseInteger() throws(CanonicalJSONError) -> Int64 {
        let start = position
        var negative = false
        if input[position] == Self.minus {
            negative = true
            position += 1
        }
        let first = try peek()
        guard Self.isDigit(first) else { throw .unexpectedByte(offset: position, byte: first) }
        var magnitude: Int64 = 0
        var outOfRange = false
        if first == Self.zero {
            position += 1
            if position < input.count, Self.isDigit(input[position]) { throw .leadingZero(offset: start) }
        } else {
            while position < input.count {
                let byte = input[position]
                guard Self.isDigit(byte) else { break }
                if !outOfRange {
                    magnitude = magnitude * 10 + Int64(byte - Self.zero)
                    if magnitude > JSONLimits.maxSafeInteger { outOfRange = true }
                }
                position += 1
            }
        }
        if position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                throw .nonInteger(offset: start)
            }
        }
        if outOfRange { throw .integerOutOfRange(offset: start) }
        if negative {
            if magnitude == 0 { mayBeNonCanonical = true }  // "-0"
            return -magnitude
        }
        return magnitude
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(CanonicalJSONError) -> String {
        let openingQuote = position
        position += 1
        let start = position
        let count = input.count
        while position < count {
            position = ByteScan.firstSpecialByte(in: input, from: position, stopAtNonASCII: true)
            guard position < count else { break }
            let byte = input[position]
            if byte == Self.quote {
                let length = position - start
                if length > limits.maxStringBytes { throw .stringTooLong(offset: openingQuote) }
                let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == Self.backslash {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<position]))
                return try parseEscapedString(openingQuote: openingQuote)
            }
            if byte < 0x20 { throw .controlCharacterInString(offset: position) }
            if byte < 0x80 {
                position += 1
            } else {
                position += try validateUTF8Sequence(at: position)
            }
        }
        throw .unexpectedEnd
    }

    /// Continues a string after the first backslash, decoding into `scratch`.
    private mutating func parseEscapedString(openingQuote: Int) throws(CanonicalJSONError) -> String {
        let count = input.count
        while position < count {
            let byte = input[position]
            if byte == Self.quote {
                position += 1
                if scratch.count > limits.maxStringBytes { throw .stringTooLong(offset: openingQuote) }
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == Self.backslash {
                try parseEscape()
            } else if byte < 0x20 {
                throw .controlCharacterInString(offset: position)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let length = try validateUTF8Sequence(at: position)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<(position + length)]))
                position += length
            }
            if scratch.count > limits.maxStringBytes { throw .stringTooLong(offset: openingQuote) }
        }
        throw .unexpectedEnd
    }

    /// Decodes one escape sequence starting at the backslash and appends its UTF-8 to `scratch`.
    private mutating func parseEscape() throws(CanonicalJSONError) {
        let escapeStart = position
        position += 1
        let kind = try peek()
        position += 1
        switch kind {
        case Self.quote: scratch.append(Self.quote)
        case Self.backslash: scratch.append(Self.backslash)
        case UInt8(ascii: "/"):
            scratch.append(UInt8(ascii: "/"))
            mayBeNonCanonical = true
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let (unit, canonicalSpelling) = try readHex4(escapeStart: escapeStart)
            var scalar = UInt32(unit)
            if unit >= 0xDC00 && unit <= 0xDFFF { throw .loneSurrogate(offset: escapeStart) }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard position + 1 < input.count, input[position] == Self.backslash,
                    input[position + 1] == UInt8(ascii: "u")
                else { throw .loneSurrogate(offset: escapeStart) }
                let lowStart = position
                position += 2
                let (low, _) = try readHex4(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw .loneSurrogate(offset: escapeStart) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                mayBeNonCanonical = true
            } else if !canonicalSpelling || unit >= 0x20 || unit == 0x08 || unit == 0x09 || unit == 0x0A
                || unit == 0x0C || unit == 0x0D
            {
                mayBeNonCanonical = true
            }
            appendUTF8(scalar)
        default:
            throw .invalidEscape(offset: escapeStart)
        }
    }

    /// Reads four hex digits after `\u`; also reports whether they are lowercase (JCS spelling).
    private mutating func readHex4(escapeStart: Int) throws(CanonicalJSONError) -> (UInt16, Bool) {
        guard position + 4 <= input.count else { throw .unexpectedEnd }
        var value: UInt16 = 0
        var lowercase = true
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case Self.zero...Self.nine: digit = byte - Self.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                digit = byte - UInt8(ascii: "A") + 10
                lowercase = false
            default: throw .invalidEscape(offset: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return (value, lowercase)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    /// - Returns: its length in bytes.
    private func validateUTF8Sequence(at offset: Int) throws(CanonicalJSONError) -> Int {
        let lead = input[offset]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondHigh = 0x9F
        case 0xF0:
            length = 4
            secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondHigh = 0x8F
        default: throw .invalidUTF8(offset: offset)
        }
        guard offset + length <= input.count else { throw .invalidUTF8(offset: offset) }
        let second = input[offset + 1]
        guard second >= secondLow && second <= secondHigh else { throw .invalidUTF8(offset: offset) }
        var index = offset + 2
        while index < offset + length {
            guard input[index] & 0xC0 == 0x80 else { throw .invalidUTF8(offset: offset) }
            index += 1
        }
        return length
    }
}
