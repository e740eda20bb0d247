/// Kith's canonical JSON: RFC 8785 (JCS) restricted to integers within ±(2^53 − 1), no floats.
///
/// Signed protocol objects are hashed and signed over ``serialize(_:)-(JSONValue)`` bytes, and a
/// received object is accepted only if it is already in exactly that form
/// (``parseCanonical(_:limits:)``), so every value has one and only one byte representation.
public enum CanonicalJSON {
    /// Parses strict RFC 8259 JSON of Kith's subset.
    ///
    /// Accepts insignificant whitespace and any escape spelling. Rejects fractions and exponents,
    /// integers beyond ±(2^53 − 1), leading zeros, invalid UTF-8, lone surrogates, unescaped
    /// control characters, duplicate keys (byte equality), trailing data and inputs beyond `limits`.
    /// `-0` parses as the integer 0. Strings are never Unicode-normalised.
    public static func parse<Bytes: Collection>(
        _ bytes: Bytes, limits: JSONLimits = .default
    ) throws(CanonicalJSONError) -> JSONValue where Bytes.Element == UInt8 {
        try withContiguousBytes(bytes, limits: limits) { (buffer) throws(CanonicalJSONError) -> JSONValue in
            var parser = CanonicalJSONParser(input: buffer, limits: limits, trackedKey: nil)
            return try parser.parseDocument()
        }
    }

    /// Parses `bytes` and requires them to be exactly the canonical serialization of the result.
    ///
    /// - Throws: any ``parse(_:limits:)`` error, or ``CanonicalJSONError/notCanonical(offset:)`` with
    ///   the first byte offset where the input differs from its canonical form.
    public static func parseCanonical<Bytes: Collection>(
        _ bytes: Bytes, limits: JSONLimits = .default
    ) throws(CanonicalJSONError) -> JSONValue where Bytes.Element == UInt8 {
        try parseCanonical(bytes, limits: limits, locatingMember: nil).value
    }

    /// Parses canonical `bytes` like ``parseCanonical(_:limits:)`` and also reports where the
    /// top-level member named `key` lies in them, from its key's opening quote to the end of its
    /// value (nil when the document is not an object or has no such member).
    ///
    /// Because the bytes are canonical, removing that range and one adjacent comma yields the
    /// canonical bytes of the object without the member, with no re-serialization.
    public static func parseCanonical<Bytes: Collection>(
        _ bytes: Bytes, limits: JSONLimits = .default, locatingMember key: String?
    ) throws(CanonicalJSONError) -> (value: JSONValue, memberRange: Range<Int>?) where Bytes.Element == UInt8 {
        try withContiguousBytes(bytes, limits: limits) { (buffer) throws(CanonicalJSONError) -> (value: JSONValue, memberRange: Range<Int>?) in
            var parser = CanonicalJSONParser(input: buffer, limits: limits, trackedKey: key)
            let value = try parser.parseDocument()
            // Fast path: the parser saw nothing the serializer would write differently.
            if !parser.mayBeNonCanonical { return (value, parser.trackedMemberRange) }
            var serializer = CanonicalJSONSerializer(capacity: buffer.count)
            serializer.write(value)
            if let offset = firstDifference(serializer.output, buffer) { throw .notCanonical(offset: offset) }
            return (value, parser.trackedMemberRange)
        }
    }

    /// The canonical bytes of an object without one member, given the canonical bytes of the whole
    /// object and that member's range (as reported by ``parseCanonical(_:limits:locatingMember:)``).
    /// A range outside the bytes leaves them unchanged.
    public static func removingMember(_ range: Range<Int>, from canonicalObject: [UInt8]) -> [UInt8] {
        guard range.lowerBound >= 1, range.upperBound < canonicalObject.count else { return canonicalObject }
        var start = range.lowerBound
        var end = range.upperBound
        if start > 1, canonicalObject[start - 1] == UInt8(ascii: ",") {
            start -= 1  // a later member: drop the comma before it
        } else if end < canonicalObject.count, canonicalObject[end] == UInt8(ascii: ",") {
            end += 1  // the first of several members: drop the comma after it
        }
        var output = [UInt8]()
        output.reserveCapacity(canonicalObject.count - (end - start))
        output.append(contentsOf: canonicalObject[..<start])
        output.append(contentsOf: canonicalObject[end...])
        return output
    }

    /// The RFC 8785 canonical bytes of `value`.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var serializer = CanonicalJSONSerializer(capacity: 256)
        serializer.write(value)
        return serializer.output
    }

    /// The RFC 8785 canonical bytes of `object`.
    public static func serialize(_ object: JSONObject) -> [UInt8] {
        var serializer = CanonicalJSONSerializer(capacity: 256)
        serializer.write(object: object)
        return serializer.output
    }

    /// True when `bytes` are valid Kith JSON already in canonical form.
    public static func isCanonical<Bytes: Collection>(_ bytes: Bytes, limits: JSONLimits = .default) -> Bool
    where Bytes.Element == UInt8 {
        (try? parseCanonical(bytes, limits: limits)) != nil
    }

    private static func withContiguousBytes<Bytes: Collection, Parsed>(
        _ bytes: Bytes, limits: JSONLimits,
        _ body: (UnsafeBufferPointer<UInt8>) throws(CanonicalJSONError) -> Parsed
    ) throws(CanonicalJSONError) -> Parsed where Bytes.Element == UInt8 {
        let size = bytes.count
        if size > limits.maxBytes { throw .tooLarge(size) }
        var result: Result<Parsed, CanonicalJSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(CanonicalJSONError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        if result == nil {
            let copy = Array(bytes)
            result = copy.withUnsafeBufferPointer { buffer in
                do throws(CanonicalJSONError) { return .success(try body(buffer)) } catch { return .failure(error) }
            }
        }
        switch result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .unexpectedEnd
        }
    }

    private static func firstDifference(_ canonical: [UInt8], _ input: UnsafeBufferPointer<UInt8>) -> Int? {
        let common = min(canonical.count, input.count)
        for index in 0..<common where canonical[index] != input[index] { return index }
        return canonical.count == input.count ? nil : common
    }
}
