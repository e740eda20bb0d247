import Hummingbird

/// The media-type rule of every JSON body the server reads: a body is read only when it is declared
/// `application/json` (parameters such as `; charset=utf-8` allowed, type and subtype case-insensitive);
/// a request without a body may leave `Content-Type` out.
///
/// Browsers send `text/plain`, form and multipart bodies (and bodies without a type) cross-site without
/// a CORS preflight; `application/json` needs one, which this server never grants. So no web page can
/// make a visitor's browser call the JSON APIs of a server on their machine or private network.
enum JSONContentType: Sendable, Equatable {
    /// `Content-Type: application/json`, with or without parameters.
    case json
    /// No `Content-Type` field.
    case absent
    /// Any other value, several values, or one that does not parse.
    case other

    /// What `request` declares.
    init(of request: Request) {
        guard let value = request.headers[.contentType] else {
            self = .absent
            return
        }
        guard let mediaType = MediaType(from: value), mediaType.type == .application, mediaType.subType == "json" else {
            self = .other
            return
        }
        self = .json
    }
}

/// A JSON API's request body, read under ``JSONContentType``'s rule.
enum JSONRequestBody: Sendable {
    /// The body's bytes (empty when there is none).
    case bytes([UInt8])
    /// Longer than the limit (413).
    case tooLarge
    /// Declared as something else than `application/json`, or a body without a `Content-Type` (415).
    case unsupportedMediaType

    /// Reads `request`'s body up to `limit` bytes; another declared type is refused before reading.
    static func read(_ request: Request, limit: Int) async -> JSONRequestBody {
        let declared = JSONContentType(of: request)
        if declared == .other { return .unsupportedMediaType }
        guard let bytes = await request.boundedBody(limit: limit) else { return .tooLarge }
        if declared == .absent, !bytes.isEmpty { return .unsupportedMediaType }
        return .bytes(bytes)
    }
}
