import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithServer
import Testing

/// Every JSON route refuses bodies not declared `application/json` (issue 25, item 8): the `text/plain`, form and
/// multipart bodies a web page can send cross-site without a CORS preflight, and bodies without a type.
@Suite("JSON routes require Content-Type: application/json (415 otherwise); bodiless requests need none")
struct JSONContentTypeTests {
    /// Content types a browser may send cross-site without a preflight, and near misses.
    static let refused: [String?] = [
        "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
        "application/jsonp", "application/json-patch+json", "text/json", "application/json, text/plain", nil,
    ]

    @Test("rendezvous REST: every body route answers 415 unsupported_media_type and stores nothing")
    func restRefuses() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let create = #"{"joinid":"123456","client1":"dev-a","expiresInSeconds":300}"#
            let routes: [(HTTPRequest.Method, String, String)] = [
                (.post, "/api/rooms", create), (.post, "/api/rooms/accept", #"{"joinid":"123456","client2":"dev-b"}"#),
                (.post, "/api/rooms/check", #"{"joinid":"123456","client1":"dev-a"}"#), (.delete, "/api/rooms", #"{"roomid":"abc"}"#),
                (.post, "/api/user/purge", #"{"deviceIds":["dev-a"]}"#),
            ]
            for (method, path, body) in routes {
                for contentType in Self.refused {
                    let answer = try await client.call(method, path, body, contentType: contentType)
                    #expect(answer.status == 415, "\(method) \(path) as \(contentType ?? "no type")")
                    #expect(answer.json["error"] == "unsupported_media_type")
                    #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true)
                }
            }
            // Nothing was created: the same code is still free.
            #expect(try await client.call(.post, "/api/rooms", create).status == 201)
        }
    }

    @Test("rendezvous REST: application/json with parameters, in any case, is accepted")
    func restAccepts() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            for (index, contentType) in ["application/json", "Application/JSON; charset=utf-8", "application/json;charset=UTF-8"].enumerated() {
                let body = #"{"joinid":"55555\#(index)","client1":"dev-a","expiresInSeconds":300}"#
                #expect(try await client.call(.post, "/api/rooms", body, contentType: contentType).status == 201, "\(contentType)")
            }
        }
    }

    @Test("a request without a body needs no Content-Type; an empty body under another type is still refused")
    func bodiless() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let missing = try await client.call(.delete, "/api/rooms")
            #expect(missing.status == 400)
            #expect(missing.json["error"] == "missing_roomid")
            #expect(try await client.call(.get, "/api/rooms?roomid=abc").status == 404)
            #expect(try await client.call(.post, "/api/rooms/check", "", contentType: "text/plain").status == 415)
        }
    }

    @Test("push gateway and push service: JSON routes answer 415 {error: unsupported_media_type}; nothing is created")
    func pushRefuses() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            for contentType in Self.refused {
                let account = try await client.push(.post, "/api/v1/accounts/", #"{"username":"mallory","password":"pw"}"#, contentType: contentType)
                #expect(account.status == 415, "\(contentType ?? "no type")")
                #expect(account.string("error") == "unsupported_media_type")
                #expect(try await client.push(.post, "/api/v1/messages/", #"{"token":"00"}"#, contentType: contentType).status == 415)
                #expect(try await client.push(.post, "/push/subscriptions", "{}", contentType: contentType).status == 415)
            }
            #expect(try await store.account(username: "mallory") == nil)

            let alice = try await client.pushAccount("alice")
            let form = try await client.push(.post, "/api/v1/device/apns/", "registration_id=abcd", token: alice, contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 415)
            let device = try await client.apnsDevice(token: alice, registration: "abcd")
            for method in [HTTPRequest.Method.put, .patch] {
                let answer = try await client.push(method, "/api/v1/device/apns/\(device)/", #"{"registration_id":"ffff"}"#, token: alice, contentType: "text/plain")
                #expect(answer.status == 415)
            }
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)"}"#, token: alice, contentType: "text/plain").status == 415)
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.devices(owner: owner, kind: .apns).map(\.registrationID) == ["abcd"])
            // Bodiless gateway calls and the push service's binary messages are untouched.
            #expect(try await client.push(.get, "/api/v1/device/apns/", token: alice).status == 200)
            #expect(try await client.push(.delete, "/api/v1/device/apns/\(device)/", token: alice).status == 204)
            let subscription = try await client.push(.post, "/push/subscriptions")
            let endpoint = try #require(subscription.string("endpoint"))
            let path = String(endpoint.dropFirst(PushTestServer.publicURL.count))
            var headers: HTTPFields = [.contentEncoding: "aes128gcm", .contentType: "application/octet-stream"]
            headers[HTTPField.Name("TTL")!] = "60"
            #expect(try await client.pushBytes(path, [1, 2, 3], headers: headers).status == 201)
        }
    }

    @Test("/openapi.json declares the 415 of every operation with a JSON request body, and only of those")
    func openAPIDeclares415() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let answer = try await client.call(.get, "/openapi.json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            var checked = 0
            for (path, operations) in paths {
                for (method, operation) in operations {
                    let bodyTypes = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?.keys.map { $0 } ?? []
                    let declares415 = (operation["responses"] as? [String: Any])?["415"] != nil
                    #expect(declares415 == bodyTypes.contains("application/json"), "\(method) \(path)")
                    if declares415 { checked += 1 }
                }
            }
            #expect(checked == 18)
            let shared = (document["components"] as? [String: Any])?["responses"] as? [String: Any]
            #expect(shared?["UnsupportedMediaType"] != nil && shared?["PushUnsupportedMediaType"] != nil)
        }
    }
}
