import KithCanonical

/// Writes a value as valid JSON that randomly uses every non-canonical spelling Kith must detect:
/// whitespace, unsorted members, `\/`, `\uXXXX` in either case, surrogate-pair escapes and `-0`.
struct NonCanonicalSpelling {
    private var source: SplitMix64
    private(set) var output: [UInt8] = []

    init(seed: UInt64) { source = SplitMix64(seed: seed) }

    /// The spelling of `value` (deterministic for a given seed).
    static func spell(_ value: JSONValue, seed: UInt64) -> [UInt8] {
        var writer = NonCanonicalSpelling(seed: seed)
        writer.write(value)
        return writer.output
    }

    private mutating func chance(_ oneIn: Int) -> Bool { source.next(below: oneIn) == 0 }

    private mutating func whitespace() {
        if chance(12) { output.append([0x20, 0x09, 0x0A, 0x0D][source.next(below: 4)]) }
    }

    private mutating func write(_ value: JSONValue) {
        whitespace()
        switch value {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .integer(let number):
            output += Array((number == 0 && chance(4) ? "-0" : String(number)).utf8)
        case .string(let text): write(string: text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { whitespace(); output.append(UInt8(ascii: ",")) }
                write(element)
            }
            whitespace()
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            var members = object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            if chance(10) { members.shuffle(using: &source) }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { whitespace(); output.append(UInt8(ascii: ",")) }
                whitespace()
                write(string: member.key)
                whitespace()
                output.append(UInt8(ascii: ":"))
                write(member.value)
            }
            whitespace()
            output.append(UInt8(ascii: "}"))
        }
    }

    private mutating func write(string: String) {
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let value = scalar.value
            let mustEscape = value < 0x20 || value == 0x22 || value == 0x5C
            if mustEscape || chance(20) {
                writeEscape(value)
            } else {
                output += Array(String(scalar).utf8)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscape(_ value: UInt32) {
        let short: [UInt32: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        if value == 0x2F, chance(2) {
            output += Array("\\/".utf8)
        } else if let form = short[value], chance(2) {
            output += Array(form.utf8)
        } else if value >= 0x10000 {
            let offset = value - 0x10000
            writeUnit(0xD800 + (offset >> 10))
            writeUnit(0xDC00 + (offset & 0x3FF))
        } else {
            writeUnit(value)
        }
    }

    private mutating func writeUnit(_ unit: UInt32) {
        let digits = chance(3) ? "0123456789ABCDEF" : "0123456789abcdef"
        let table = Array(digits.utf8)
        output += Array("\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) { output.append(table[Int((unit >> UInt32(shift)) & 0xF)]) }
    }
}
