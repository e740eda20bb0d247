import AsyncHTTPClient
import Foundation
import KithCanonical
import NIOCore
import NIOHTTP1

/// Minimal JSON and byte requests against the push child (AsyncHTTPClient).
struct PushHTTP: Sendable {
    let base: String
    let client: HTTPClient

    /// The answer's status, headers and body.
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]

        var object: JSONObject? {
            try? CanonicalJSON.parse(body, limits: JSONLimits(maxBytes: 1 << 20, maxDepth: 6, maxStringBytes: 1 << 20, maxContainerElements: 10_000, maxTotalValues: 100_000)).objectValue
        }
    }

    func send(_ method: HTTPMethod, _ path: String, body: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Array(bytes.readableBytesView))
    }

    func json(_ method: HTTPMethod, _ path: String, _ object: JSONObject, token: String? = nil) async throws -> Answer {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Token \(token)")) }
        return try await send(method, path, body: CanonicalJSON.serialize(object), headers: headers)
    }
}
