import Hummingbird
import KithCanonical
import KithRendezvous

/// Reads gateway request bodies: bounded, strict JSON objects; an empty body reads as `{}` so
/// its members are reported missing.
enum GatewayBody {
    /// The body as a JSON object of at most `limit` bytes, declared `application/json` (415 otherwise,
    /// ``JSONContentType``; 413 beyond the limit; 400 for anything else than a JSON object).
    static func object(_ request: Request, limit: Int) async throws(GatewayRejection) -> JSONObject {
        let bytes: [UInt8]
        switch await JSONRequestBody.read(request, limit: limit) {
        case .bytes(let read): bytes = read
        case .tooLarge: throw .tooLarge(limit: limit)
        case .unsupportedMediaType: throw .unsupportedMediaType
        }
        if bytes.isBlankJSON { return JSONObject() }
        let limits = JSONLimits(maxBytes: limit, maxDepth: 4, maxStringBytes: limit, maxContainerElements: 64, maxTotalValues: 256)
        let value: JSONValue
        do throws(CanonicalJSONError) {
            value = try CanonicalJSON.parse(bytes, limits: limits)
        } catch {
            throw GatewayRejection.field("non_field_errors", "JSON parse error: \(error)")
        }
        guard case .object(let object) = value else { throw .field("non_field_errors", "Invalid data. Expected a dictionary.") }
        return object
    }

    /// An optional string member: nil when absent or null; 400 for another type or more than `maximumLength` characters.
    static func optionalString(_ object: JSONObject, _ name: String, maximumLength: Int) throws(GatewayRejection) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .field(name, "Not a valid string.") }
        guard text.unicodeScalars.count <= maximumLength else { throw .field(name, "Ensure this field has no more than \(maximumLength) characters.") }
        return text
    }

    /// A required non-empty string member of at most `maximumLength` characters.
    static func requiredString(_ object: JSONObject, _ name: String, maximumLength: Int) throws(GatewayRejection) -> String {
        guard let value = object[name], !value.isNull else { throw .field(name, "This field is required.") }
        guard let text = value.stringValue else { throw .field(name, "Not a valid string.") }
        guard !text.isEmpty else { throw .field(name, "This field may not be blank.") }
        guard text.unicodeScalars.count <= maximumLength else { throw .field(name, "Ensure this field has no more than \(maximumLength) characters.") }
        return text
    }

    /// An optional boolean member.
    static func optionalBool(_ object: JSONObject, _ name: String) throws(GatewayRejection) -> Bool? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .field(name, "Must be a valid boolean.") }
        return flag
    }
}
