/// Writes ``JSONValue`` trees as RFC 8785 (JCS) bytes.
///
/// No whitespace; object members sorted by UTF-16 code units; strings escape only `"`, `\` and
/// U+0000…U+001F (`\b \t \n \f \r` short forms, otherwise `\u00xx` in lowercase hex) and keep
/// everything else, including `/` and non-ASCII, as raw UTF-8; integers in plain decimal.
struct CanonicalJSONSerializer {
    private(set) var output: [UInt8]

    init(capacity: Int) {
        output = []
        output.reserveCapacity(capacity)
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            append("null")
        case .bool(true):
            append("true")
        case .bool(false):
            append("false")
        case .integer(let number):
            write(integer: number)
        case .string(let text):
            write(string: text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            write(object: object)
        }
    }

    private mutating func append(_ literal: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func write(object: JSONObject) {
        let members = object.members
        var sorted = true
        if members.count > 1 {
            for index in 1..<members.count where !UTF8Bytes.utf16Less(members[index - 1].key, members[index].key) {
                sorted = false
                break
            }
        }
        output.append(UInt8(ascii: "{"))
        if sorted {
            writeMembers(members)
        } else {
            writeMembers(members.sorted { UTF8Bytes.utf16Less($0.key, $1.key) })
        }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func writeMembers(_ members: [(key: String, value: JSONValue)]) {
        var first = true
        for member in members {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            write(string: member.key)
            output.append(UInt8(ascii: ":"))
            write(member.value)
        }
    }

    mutating func write(integer: Int64) {
        if integer == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = integer.magnitude
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    mutating func write(string: String) {
        UTF8Bytes.withBytes(string) { bytes in write(utf8: bytes) }
    }

    private mutating func write(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        let count = bytes.count
        while true {
            let index = ByteScan.firstSpecialByte(in: bytes, from: runStart, stopAtNonASCII: false)
            if index == count { break }
            let byte = bytes[index]
            if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: output.append(0x22)
            case 0x5C: output.append(0x5C)
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x09: output.append(UInt8(ascii: "t"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            default:
                output.append(UInt8(ascii: "u"))
                output.append(UInt8(ascii: "0"))
                output.append(UInt8(ascii: "0"))
                output.append(Self.hexDigits.utf8Start[Int(byte >> 4)])
                output.append(Self.hexDigits.utf8Start[Int(byte & 0x0F)])
            }
            runStart = index + 1
        }
        if runStart < count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        output.append(UInt8(ascii: "\""))
    }
}
