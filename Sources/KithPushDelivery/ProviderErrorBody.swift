import KithCanonical

/// Reads short reason codes out of provider error bodies (APNs `{"reason":…}`, FCM `{"error":{…}}`).
enum ProviderErrorBody {
    /// Bounds for an error body.
    static let limits = JSONLimits(maxBytes: 16 * 1024, maxDepth: 6, maxStringBytes: 2_048, maxContainerElements: 64, maxTotalValues: 512)

    /// The JSON object of `body`, or nil.
    static func object(_ body: [UInt8]) -> JSONObject? {
        guard !body.isEmpty, let value = try? CanonicalJSON.parse(body, limits: limits) else { return nil }
        return value.objectValue
    }

    /// `text` if it looks like a reason code (1…64 ASCII letters, digits or `_`), else nil: keeps
    /// arbitrary server text out of outcome reasons and logs.
    static func code(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= 64,
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        return text
    }
}
