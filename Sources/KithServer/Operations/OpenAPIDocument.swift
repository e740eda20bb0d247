import Foundation
import Hummingbird
import NIOCore

/// The OpenAPI 3.1 document of the REST API, served at `GET /openapi.json`: the one description
/// of every endpoint's request, responses and status codes, checked against the running server by
/// `Interop/serve/schemathesis.sh` (schemathesis) and against the router by `OpenAPIRouteTests`.
///
/// Its text lives in JSON fragments under `Sources/KithServer/Resources/OpenAPI/`, embedded in the
/// binary by SwiftPM (`.embedInCode`: no resource bundle has to travel beside a copied `kith`).
/// `openapi.json` is the root (`openapi`, `info`, `servers`, the pairing's device and operator
/// endpoints); each other fragment adds `paths` and `components` of one concern. They are merged
/// once, as JSON values, and served as the same bytes every time (keys sorted).
enum OpenAPIDocument {
    /// The fragments, root first, as SwiftPM embeds them.
    static let fragments: [(name: String, bytes: [UInt8])] = [
        ("openapi.json", PackageResources.openapi_json),
        ("openapi-rooms.json", PackageResources.openapi_rooms_json),
        ("openapi-rendezvous-schemas.json", PackageResources.openapi_rendezvous_schemas_json),
        ("openapi-push-accounts-tokens.json", PackageResources.openapi_push_accounts_tokens_json),
        ("openapi-push-devices-apns-gcm.json", PackageResources.openapi_push_devices_apns_gcm_json),
        ("openapi-push-webpush-service.json", PackageResources.openapi_push_webpush_service_json),
        ("openapi-push-schemas.json", PackageResources.openapi_push_schemas_json),
    ]

    /// The merged document as served, and the operations it documents; a failure names the
    /// fragment and the member at fault (a defect of the build, caught by `OpenAPIRouteTests`).
    static let loaded: Result<OpenAPIDocument.Loaded, OpenAPIDocumentError> = Result { () throws(OpenAPIDocumentError) in
        try load(fragments)
    }

    /// What ``load(_:)`` produced.
    struct Loaded: Sendable {
        /// The document's JSON text, served as is.
        let body: ByteBuffer
        /// Each documented path with its methods.
        let operations: [OpenAPIOperations]
    }

    /// Members that several fragments may each add to; any other member named twice is a conflict.
    static let mergedSections: Set<String> = ["/paths", "/components", "/components/responses", "/components/schemas"]

    /// Parses `fragments`, merges them in order and renders the result.
    static func load(_ fragments: [(name: String, bytes: [UInt8])]) throws(OpenAPIDocumentError) -> Loaded {
        var document: [String: Any] = [:]
        for fragment in fragments {
            guard let object = try? JSONSerialization.jsonObject(with: Data(fragment.bytes)) as? [String: Any] else {
                throw .malformed(fragment: fragment.name)
            }
            try merge(object, into: &document, at: "", fragment: fragment.name)
        }
        guard
            let text = try? JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { throw .malformed(fragment: "(merged document)") }
        let paths = document["paths"] as? [String: Any] ?? [:]
        let operations = paths.keys.sorted().map { path in
            OpenAPIOperations(path: path, methods: OpenAPIOperations.methods(named: (paths[path] as? [String: Any] ?? [:]).keys))
        }
        return Loaded(body: ByteBuffer(bytes: text), operations: operations)
    }

    /// Adds `fragment`'s members to `document`: an object named again in one of ``mergedSections``
    /// is merged member by member; any other member named twice (a path, a schema, `info`) throws.
    private static func merge(
        _ addition: [String: Any], into document: inout [String: Any], at location: String, fragment: String
    ) throws(OpenAPIDocumentError) {
        for (key, value) in addition {
            let here = location + "/" + key
            guard let existing = document[key] else {
                document[key] = value
                continue
            }
            guard mergedSections.contains(here), var merged = existing as? [String: Any], let added = value as? [String: Any] else {
                throw .conflict(fragment: fragment, member: here)
            }
            try merge(added, into: &merged, at: here, fragment: fragment)
            document[key] = merged
        }
    }
}

/// One documented path and the methods it serves.
struct OpenAPIOperations: Sendable, Equatable {
    /// The path as the document writes it, such as `/api/rooms/{roomid}`.
    let path: String
    /// Its methods, in the order an `Allow` header lists them (GET, POST, PUT, PATCH, DELETE).
    let methods: [HTTPRequest.Method]

    /// The order of ``methods``.
    static let methodOrder: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]

    /// The HTTP methods among a path item's members (`summary`, `parameters` and the like are not methods).
    static func methods(named members: some Sequence<String>) -> [HTTPRequest.Method] {
        let named = Set(members.map { $0.uppercased() })
        return methodOrder.filter { named.contains($0.rawValue) }
    }
}

/// Why the OpenAPI fragments could not be merged: a defect of the build, never of a request.
enum OpenAPIDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fragment is not a JSON object.
    case malformed(fragment: String)
    /// The fragment names a member an earlier fragment already holds (a JSON-pointer-like location).
    case conflict(fragment: String, member: String)

    var description: String {
        switch self {
        case .malformed(let fragment): "OpenAPI fragment \(fragment) is not a JSON object"
        case .conflict(let fragment, let member): "OpenAPI fragment \(fragment) names \(member) again; each member belongs to one fragment"
        }
    }
}
