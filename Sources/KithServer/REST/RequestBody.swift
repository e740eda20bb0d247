import Hummingbird
import KithCanonical
import KithRendezvous

/// Reads REST request bodies through the rendezvous codec.
enum RequestBody {
    /// The body as a JSON object: declared `application/json` (415 `unsupported_media_type`
    /// otherwise, ``JSONContentType``), at most ``RendezvousLimits/maximumRequestBodyBytes`` (413
    /// beyond), strict JSON (400 `invalid_json`); an empty body reads as `{}`, so its members are
    /// reported missing, as Inviso did.
    static func object(_ request: Request) async throws(RESTRejection) -> JSONObject {
        let limit = RendezvousLimits.maximumRequestBodyBytes
        let buffer: [UInt8]
        switch await JSONRequestBody.read(request, limit: limit) {
        case .bytes(let bytes): buffer = bytes
        case .tooLarge:
            throw RESTRejection(.contentTooLarge, RendezvousErrorBody(
                error: RendezvousErrorCode.bodyTooLarge, details: "request bodies are limited to \(limit) bytes"))
        case .unsupportedMediaType:
            throw RESTRejection(.unsupportedMediaType, RendezvousErrorBody(
                error: RendezvousErrorCode.unsupportedMediaType, details: "send the body as JSON with Content-Type: application/json"))
        }
        if buffer.isBlankJSON { return JSONObject() }
        do throws(RendezvousCodecError) {
            return try RendezvousJSON.parseObject(buffer, limits: RendezvousJSON.restLimits)
        } catch {
            throw RESTRejection(.badRequest, RendezvousErrorBody(error: RendezvousErrorCode.invalidJSON, details: error.description))
        }
    }

    /// Decodes `object` with a protocol type's `init(json:)`, mapping its rejection to 400.
    static func decode<Value>(_ object: JSONObject, _ decoder: (JSONObject) throws(RendezvousCodecError) -> Value) throws(RESTRejection) -> Value {
        do throws(RendezvousCodecError) {
            return try decoder(object)
        } catch {
            throw RESTRejection(rejecting: error)
        }
    }
}
