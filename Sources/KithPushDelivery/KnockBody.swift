import KithCanonical

/// Reads the knock body the gateway hands to providers, `{"message":{"data":…,"token":…}}`, so that
/// APNs and FCM can carry its `message` object in their own payload shapes.
enum KnockBody {
    /// Bounds for the knock body: a small object, shallow, short strings.
    static let limits = JSONLimits(maxBytes: 4_096, maxDepth: 4, maxStringBytes: 4_096, maxContainerElements: 16, maxTotalValues: 64)

    /// The `message` object of a knock body, or nil when the body is not a JSON object with one.
    static func messageObject(_ payload: [UInt8]) -> JSONObject? {
        guard let value = try? CanonicalJSON.parse(payload, limits: limits),
              let object = value.objectValue, let message = object["message"]?.objectValue else { return nil }
        return message
    }
}
