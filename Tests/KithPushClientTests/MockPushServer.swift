import Foundation
import Hummingbird
import HummingbirdWebSocket
import KithCanonical
import KithPush
import NIOCore
import Synchronization

/// A small stand-in for `kith serve`'s gateway and push service on loopback, following docs/PUSH-CLIENT.md's
/// contract: accounts, Web Push devices, token batches, revocation, knocks (202/404/429), subscriptions, and the
/// subscriber WebSocket with acknowledgements. Knocks are RFC 8291-encrypted to the registered device.
final class MockPushServer: Sendable {
    struct State {
        var accounts: [String: (password: String, token: String)] = [:]
        var device: WebPushSubscriberKeys?
        var tokens: Set<String> = []
        var revoked: [String] = []
        var knocks: [String] = []
        var queue: [(id: String, body: [UInt8])] = []
        var acked: [String] = []
        var nextID = 0
        var subscriptions = 0
        var rateLimited: Set<String> = []
    }

    let state = Mutex(State())
    static let secret = "sub-secret-0123456789"
    static let authToken = String(repeating: "ab", count: 20)

    func enqueue(raw body: [UInt8]) {
        state.withLock { state in
            state.nextID += 1
            state.queue.append((id: "m\(state.nextID)", body: body))
        }
    }

    func makeApplication() -> some ApplicationProtocol {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.post("/api/v1/accounts") { request, _ -> Response in
            let object = try await Self.json(request)
            guard let username = object["username"]?.stringValue, let password = object["password"]?.stringValue else {
                return Self.reply(.badRequest, ["username": .array([.string("required")])])
            }
            let status: HTTPResponse.Status? = self.state.withLock { state in
                if let existing = state.accounts[username] { return existing.password == password ? .ok : nil }
                state.accounts[username] = (password, Self.authToken)
                return .created
            }
            guard let status else { return Self.reply(.unauthorized, ["error": "Invalid credentials"]) }
            return Self.reply(status, ["username": .string(username), "email": .null, "id": "acct-1", "token": .string(Self.authToken)])
        }
        router.post("/api/v1/device/webpush") { request, _ -> Response in
            guard request.headers[.authorization] == "Token \(Self.authToken)" else { return Self.reply(.unauthorized, ["detail": "no"]) }
            let object = try await Self.json(request)
            guard let keys = object["keys"]?.objectValue, let p256dh = keys["p256dh"]?.stringValue, let auth = keys["auth"]?.stringValue,
                  let subscriber = try? WebPushSubscriberKeys(p256dh: p256dh, auth: auth) else { return Self.reply(.badRequest, ["keys": ["invalid"]]) }
            self.state.withLock { $0.device = subscriber }
            return Self.reply(.created, ["id": "dev-1", "active": true, "name": "kith"])
        }
        router.post("/api/v1/tokens") { request, _ -> Response in
            guard request.headers[.authorization] == "Token \(Self.authToken)" else { return Self.reply(.unauthorized, ["detail": "no"]) }
            let object = try await Self.json(request)
            guard object["webpush_device"]?.stringValue == "dev-1" else { return Self.reply(.badRequest, ["webpush_device": ["unknown"]]) }
            let count = Int(object["count"]?.integerValue ?? 1)
            let made = (0..<count).map { _ in WhitelistToken.generate().hex }
            self.state.withLock { $0.tokens.formUnion(made) }
            let items: [JSONValue] = made.map { .object(["token": .string($0), "webpush_device": "dev-1", "date_expires": "2030-01-01T00:00:00.000000Z"]) }
            return count == 1 && object["count"] == nil ? Self.reply(.created, items[0].objectValue ?? [:]) : Self.reply(.created, ["results": .array(items)])
        }
        router.delete("/api/v1/tokens/:token") { _, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let known = self.state.withLock { state in
                state.revoked.append(token)
                return state.tokens.remove(token) != nil
            }
            return Response(status: known ? .noContent : .notFound)
        }
        router.post("/api/v1/messages") { request, _ -> Response in
            let object = try await Self.json(request)
            guard let token = object["token"]?.stringValue else { return Self.reply(.badRequest, ["token": ["required"]]) }
            let (known, limited, device) = self.state.withLock { state in
                state.knocks.append(token)
                return (state.tokens.contains(token), state.rateLimited.contains(token), state.device)
            }
            if limited { return Response(status: .tooManyRequests, headers: [.retryAfter: "7"]) }
            guard known, let device else { return Response(status: .notFound) }
            var message = JSONObject()
            message["data"] = object["data"] ?? .null
            message["token"] = .string(token)
            let root: JSONObject = ["message": .object(message)]
            let body = try WebPushEncryption.encrypt(CanonicalJSON.serialize(root), for: device)
            self.enqueue(raw: body)
            return Self.reply(.accepted, ["token": .string(token), "data": object["data"] ?? .null, "priority": object["priority"] ?? "high"])
        }
        router.post("/push/subscriptions") { _, _ -> Response in
            self.state.withLock { $0.subscriptions += 1 }
            return Self.reply(.created, ["endpoint": "http://127.0.0.1:1/push/capability-abc", "subscription": .string(Self.secret)])
        }
        router.delete("/push/subscriptions/:secret") { _, _ -> Response in Response(status: .noContent) }
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws("/push/subscriptions/:secret/ws") { inbound, outbound, context in
            guard context.requestContext.parameters.get("secret") == Self.secret else { return }
            let sent = Locked(Set<String>())
            // Pushes queued messages; acks remove them.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        let pending = self.state.withLock { $0.queue }
                        for item in pending where sent.update({ $0.insert(item.id).inserted }) {
                            let frame: JSONObject = ["type": "message", "id": .string(item.id), "body": .string(Base64URL.encode(item.body)), "urgency": "normal"]
                            try await outbound.writeTextMessage(String(decoding: CanonicalJSON.serialize(frame), as: UTF8.self))
                        }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                var iterator = inbound.makeAsyncIterator()
                while let message = try await iterator.nextMessage(maxSize: 4096) {
                    guard case .text(let text) = message, let object = (try? CanonicalJSON.parse(Array(text.utf8)))?.objectValue,
                          object["type"]?.stringValue == "ack", let id = object["id"]?.stringValue else { continue }
                    self.state.withLock { state in
                        state.acked.append(id)
                        state.queue.removeAll { $0.id == id }
                    }
                }
                group.cancelAll()
            }
        }
        return Application(
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: sockets),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func json(_ request: Request) async throws -> JSONObject {
        let buffer = try await request.body.collect(upTo: 8192)
        return (try? CanonicalJSON.parse(Array(buffer.readableBytesView)))?.objectValue ?? JSONObject()
    }

    static func reply(_ status: HTTPResponse.Status, _ object: JSONObject) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: CanonicalJSON.serialize(object))))
    }
}
