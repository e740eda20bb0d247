import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import KithServer

/// `/openapi.json` against the router: the routes Hummingbird registers (`Router.routes`) and the
/// operations the document lists are the same set, so neither can grow without the other.
@Suite("OpenAPI document against the router")
struct OpenAPIRouteTests {
    /// One operation, its path written as the document writes it without a trailing slash
    /// (Hummingbird ignores one): `GET /api/rooms/{roomid}`.
    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }

        init(_ method: String, _ path: String) {
            self.method = method.uppercased()
            self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        }
    }

    /// HTTP routes outside the REST API the document describes: the invite pages are HTML for a
    /// browser (docs/INVITES.md).
    static let undocumented: Set<Operation> = [Operation("GET", "/i/{code}"), Operation("GET", "/v2")]

    /// The operations `server`'s router serves and the ones the document lists, expecting every
    /// served one (but the exemptions) to be documented.
    static func compare(_ server: RendezvousServer) throws -> (served: Set<Operation>, documented: Set<Operation>) {
        let served = Set(server.makeRouters().http.routes.map { Operation($0.method.rawValue, $0.path.description) })
        let document = try OpenAPIDocument.loaded.get()
        let documented = Set(document.operations.flatMap { item in item.methods.map { Operation($0.rawValue, item.path) } })
        #expect(served.subtracting(Self.undocumented).subtracting(documented).isEmpty, "served, not documented")
        return (served, documented)
    }

    @Test("with push: every registered route is documented and every documented operation is served")
    func withPush() throws {
        let (served, documented) = try Self.compare(try PushTestServer.make().server)
        #expect(documented.subtracting(served).isEmpty, "documented, not served")
        #expect(Self.undocumented.isSubset(of: served), "an exempt route is no longer served: drop it from the exemptions")
    }

    @Test("without push: every registered route is documented; the same document also lists the push operations")
    func withoutPush() throws {
        let (served, documented) = try Self.compare(try TestServer.make().server)
        let pushOnly = documented.subtracting(served)
        #expect(pushOnly.allSatisfy { $0.path.hasPrefix("/api/v1/") || $0.path.hasPrefix("/push/") }, "\(pushOnly)")
        #expect(!pushOnly.isEmpty)
    }

    @Test("GET /openapi.json serves the merged fragments' bytes, the same with and without push")
    func servedBytes() async throws {
        let expected = try OpenAPIDocument.loaded.get().body
        let (plain, _, _) = try TestServer.make()
        let (withPush, _, _) = try PushTestServer.make()
        for server in [plain, withPush] {
            try await server.makeApplication().test(.router) { client in
                try await client.execute(uri: "/openapi.json", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.body == expected)
                }
            }
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(expected.readableBytesView)) as? [String: Any])
        #expect(Set(object.keys) == ["openapi", "info", "servers", "paths", "components"])
    }

    @Test("the 405 table is the document's: a path's Allow lists the methods it documents")
    func methodNotAllowedTable() throws {
        let document = try OpenAPIDocument.loaded.get()
        #expect(MethodNotAllowedMiddleware.routes.count == document.operations.count)
        #expect(MethodNotAllowedMiddleware.allowedMethods(path: "/api/rooms") == [.get, .post, .delete])
        #expect(MethodNotAllowedMiddleware.allowedMethods(path: "/api/v1/device/webpush/abc/") == [.get, .put, .patch, .delete])
        #expect(MethodNotAllowedMiddleware.allowedMethods(path: "/push/subscriptions") == [.post])
        #expect(MethodNotAllowedMiddleware.allowedMethods(path: "/") == [.get])
        #expect(MethodNotAllowedMiddleware.allowedMethods(path: "/nope").isEmpty)
    }

    @Test("fragments: a member two fragments both hold, or a fragment that is not a JSON object, is refused by name")
    func fragmentDefects() {
        let root = (name: "root.json", bytes: Array(#"{"openapi":"3.1.0","paths":{"/a":{"get":{}}},"components":{"schemas":{"A":{}}}}"#.utf8))
        let paths = (name: "more.json", bytes: Array(#"{"paths":{"/b":{"post":{}}},"components":{"schemas":{"B":{}}}}"#.utf8))
        #expect(throws: Never.self) { try OpenAPIDocument.load([root, paths]) }
        let samePath = (name: "same-path.json", bytes: Array(#"{"paths":{"/a":{"post":{}}}}"#.utf8))
        #expect(throws: OpenAPIDocumentError.conflict(fragment: "same-path.json", member: "/paths//a")) {
            try OpenAPIDocument.load([root, samePath])
        }
        let schema = (name: "schema.json", bytes: Array(#"{"components":{"schemas":{"A":{"type":"string"}}}}"#.utf8))
        #expect(throws: OpenAPIDocumentError.conflict(fragment: "schema.json", member: "/components/schemas/A")) {
            try OpenAPIDocument.load([root, schema])
        }
        let info = (name: "info.json", bytes: Array(#"{"openapi":"3.0.0"}"#.utf8))
        #expect(throws: OpenAPIDocumentError.conflict(fragment: "info.json", member: "/openapi")) {
            try OpenAPIDocument.load([root, info])
        }
        #expect(throws: OpenAPIDocumentError.malformed(fragment: "list.json")) {
            try OpenAPIDocument.load([root, (name: "list.json", bytes: Array("[1]".utf8))])
        }
    }
}
