/// A value of Kith's JSON subset: RFC 8259 JSON without floating-point numbers.
///
/// Integers are limited to ±(2^53 − 1) when parsed. Strings are stored exactly as decoded and never
/// Unicode-normalised; equality and hashing compare strings by their UTF-8 bytes, so `"\u{C5}"`
/// and `"A\u{30A}"` are different values (Swift's own `String ==` would call them equal).
/// Objects compare equal when they have the same members regardless of member order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer; values parsed from JSON are within ±(2^53 − 1).
    case integer(Int64)
    /// A string, kept byte-exact.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// An object with unique keys.
    case object(JSONObject)

    /// Compares by structure; strings by UTF-8 bytes, objects independently of member order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.string(let a), .string(let b)): UTF8Bytes.equal(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(3 as UInt8)
            UTF8Bytes.hash(value, into: &hasher)
        case .array(let values):
            hasher.combine(4 as UInt8)
            hasher.combine(values.count)
            for value in values { value.hash(into: &hasher) }
        case .object(let object):
            hasher.combine(5 as UInt8)
            object.hash(into: &hasher)
        }
    }
}

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` in code becomes JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object literal; keys must be unique (checked by precondition: literals are programmer input).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(uniqueMembers: elements))
    }
}
