import KithCanonical

/// UTF-8 bytes of a Swift string literal (test shorthand).
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Parses a string's UTF-8 bytes with the default limits.
func parse(_ text: String, limits: JSONLimits = .default) throws(CanonicalJSONError) -> JSONValue {
    try CanonicalJSON.parse(utf8(text), limits: limits)
}

/// Parses a string's UTF-8 bytes, requiring canonical form.
func parseCanonical(_ text: String, limits: JSONLimits = .default) throws(CanonicalJSONError) -> JSONValue {
    try CanonicalJSON.parseCanonical(utf8(text), limits: limits)
}

/// The canonical serialization as a Swift string.
func canonicalText(_ value: JSONValue) -> String {
    String(decoding: CanonicalJSON.serialize(value), as: UTF8.self)
}

/// The error thrown by `body`, or nil when it succeeded.
func caughtError(_ body: () throws(CanonicalJSONError) -> JSONValue) -> CanonicalJSONError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
