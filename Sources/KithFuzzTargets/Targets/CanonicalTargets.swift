import KithCanonical

extension FuzzTarget {
    /// Strict JSON: anything accepted re-serializes canonically, parses back to the same value, and
    /// is accepted by `parseCanonical` in its canonical form; `parse` and `parseCanonical` agree.
    static let canonicalJSON = FuzzTarget(name: "canonical-json", summary: "KithCanonical strict JSON parser and canonical form") { input in
        guard let value = try? CanonicalJSON.parse(input) else { return }
        let canonical = CanonicalJSON.serialize(value)
        let reparsed = try? CanonicalJSON.parseCanonical(canonical)
        FuzzProperty.require(reparsed == value, "the canonical form of an accepted document does not parse back to the same value")
        if let strict = try? CanonicalJSON.parseCanonical(input) {
            FuzzProperty.require(strict == value, "parse and parseCanonical disagree")
            FuzzProperty.require(canonical == input, "parseCanonical accepted bytes that are not the canonical form")
        }
    }

    /// Base64url and base32 text decoders: whatever decodes re-encodes to the same text.
    static let textEncodings = FuzzTarget(name: "text-encodings", summary: "KithCanonical base64url, base32 and hex decoders") { input in
        if let bytes = try? Base64URL.decode(utf8: input) {
            FuzzProperty.require(Array(Base64URL.encode(bytes).utf8) == input, "base64url decode is not the inverse of encode")
        }
        guard let text = FuzzProperty.text(input) else { return }
        _ = try? Base32.decode(text)
        _ = Hex.decode(text)
    }
}
