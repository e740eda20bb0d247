/// A JSON object: members with unique keys, kept in insertion (or parse) order.
///
/// Keys are compared by UTF-8 bytes, never by Unicode canonical equivalence, so `"\u{C5}"` and
/// `"A\u{30A}"` are two distinct keys. Serialization sorts members (RFC 8785); the stored order only
/// matters for iteration. Two objects are equal when they have the same members in any order.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// Members in insertion order; keys are unique by UTF-8 bytes.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Objects above this size use a hash set for duplicate detection instead of pairwise scans.
    static let linearScanLimit = 16

    /// An empty object.
    public init() {
        members = []
    }

    /// Creates an object from members in order.
    ///
    /// - Throws: ``CanonicalJSONError/duplicateKey(_:)`` when two keys have identical UTF-8 bytes.
    public init(members: [(String, JSONValue)]) throws(CanonicalJSONError) {
        if let duplicate = Self.firstDuplicateKey(members.lazy.map(\.0)) {
            throw .duplicateKey(duplicate)
        }
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// Creates an object from a literal; keys must be unique (a duplicate is a programming error).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniqueMembers: elements)
    }

    init(uniqueMembers elements: [(String, JSONValue)]) {
        precondition(Self.firstDuplicateKey(elements.lazy.map(\.0)) == nil, "duplicate key in JSONObject literal")
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// Wraps members already known to have unique keys (used by the parser).
    init(validatedMembers: [(key: String, value: JSONValue)]) {
        members = validatedMembers
    }

    /// The keys in member order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// True when the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The value for `key` (UTF-8 byte equality). Setting replaces in place or appends; setting `nil` removes.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return members[index].value
        }
        set {
            let existing = index(of: key)
            switch (existing, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// A copy without `key` (unchanged when absent).
    public func removing(_ key: String) -> JSONObject {
        var copy = self
        copy[key] = nil
        return copy
    }

    /// True when a member has exactly this key.
    public func contains(_ key: String) -> Bool { index(of: key) != nil }

    private func index(of key: String) -> Int? {
        members.firstIndex { UTF8Bytes.equal($0.key, key) }
    }

    /// Equal when both have the same keys (by bytes) mapped to equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        var sameOrder = true
        for (left, right) in zip(lhs.members, rhs.members) where !UTF8Bytes.equal(left.key, right.key) {
            sameOrder = false
            break
        }
        if sameOrder {
            for (left, right) in zip(lhs.members, rhs.members) where left.value != right.value { return false }
            return true
        }
        if lhs.members.count <= linearScanLimit {
            for member in lhs.members {
                guard let other = rhs[member.key], other == member.value else { return false }
            }
            return true
        }
        var byKey = [UTF8ByteKey: JSONValue](minimumCapacity: rhs.members.count)
        for member in rhs.members { byKey[UTF8ByteKey(string: member.key)] = member.value }
        for member in lhs.members {
            guard let other = byKey[UTF8ByteKey(string: member.key)], other == member.value else { return false }
        }
        return true
    }

    /// Hashes independently of member order, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            UTF8Bytes.hash(member.key, into: &memberHasher)
            member.value.hash(into: &memberHasher)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }

    /// The first key that repeats an earlier one byte for byte, if any.
    static func firstDuplicateKey<Keys: Collection>(_ keys: Keys) -> String? where Keys.Element == String {
        if keys.count <= linearScanLimit {
            var seen: [String] = []
            seen.reserveCapacity(keys.count)
            for key in keys {
                if seen.contains(where: { UTF8Bytes.equal($0, key) }) { return key }
                seen.append(key)
            }
            return nil
        }
        var seen = Set<UTF8ByteKey>(minimumCapacity: keys.count)
        for key in keys where !seen.insert(UTF8ByteKey(string: key)).inserted { return key }
        return nil
    }
}
