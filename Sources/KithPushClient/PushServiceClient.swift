import AsyncHTTPClient
import HummingbirdWSClient
import KithCanonical
import KithPush
import Logging
import NIOCore
import Synchronization

/// A client of a push service (`kith serve`'s RFC 8030 push service, docs/PUSH-CLIENT.md): creates this
/// device's subscription and listens for its messages over the subscriber WebSocket, decrypting each
/// (RFC 8291) into a knock.
public struct PushServiceClient: Sendable {
    /// The push service's base URL, such as `http://127.0.0.1:8080`.
    public let baseURL: String
    private let http: PushHTTP
    private let logger: Logger

    /// A client of the push service at `baseURL`.
    public init(
        baseURL: String, httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(10),
        logger: Logger = Logger(label: "kith.push.service")
    ) throws(PushClientError) {
        self.baseURL = try PushHTTP.base(baseURL)
        http = PushHTTP(httpClient: httpClient, timeout: timeout)
        self.logger = logger
    }

    /// Creates a subscription (201): the endpoint to register at the gateway and the secret to read it with.
    public func createSubscription() async throws(PushClientError) -> PushSubscription {
        let answer = try await http.send(.POST, baseURL + "/push/subscriptions", body: JSONObject())
        guard answer.status == 201 else { throw answer.failure() }
        let object = try answer.object()
        guard let endpoint = object["endpoint"]?.stringValue, endpoint.hasPrefix("http"), endpoint.utf8.count <= 512,
              let secret = object["subscription"]?.stringValue, !secret.isEmpty, secret.utf8.count <= 128,
              secret.unicodeScalars.allSatisfy(CharacterSetLite.isUnreserved) else {
            throw .invalidResponse(status: 201, reason: "the subscription answer lacks a valid 'endpoint' or 'subscription'")
        }
        return PushSubscription(endpoint: endpoint, secret: secret)
    }

    /// Deletes a subscription (idempotent: 404 counts as deleted).
    public func deleteSubscription(secret: String) async throws(PushClientError) {
        let answer = try await http.send(.DELETE, baseURL + "/push/subscriptions/" + GatewayPath.segment(secret), body: nil)
        guard answer.status == 204 || answer.status == 200 || answer.status == 404 else { throw answer.failure() }
    }

    /// The subscriber WebSocket URL of a subscription.
    public func socketURL(secret: String) -> String {
        let scheme = baseURL.hasPrefix("https://") ? "wss://" : "ws://"
        let rest = baseURL.drop { $0 != ":" }.dropFirst(3)
        return scheme + rest + "/push/subscriptions/" + GatewayPath.segment(secret) + "/ws"
    }

    /// Listens for knocks until `onKnock` says ``KnockListenDecision/stop`` or the task is cancelled.
    ///
    /// Each message is decrypted with `keys`, read as a ``KnockBody`` and handed to `onKnock`; it is acknowledged
    /// (deleted at the service) only after `onKnock` returns, so a crash before that gets it again on the next
    /// connection. A message that does not decrypt or is not a knock is reported to `onRejected` and acknowledged
    /// (dropped). The connection is re-opened after it drops, with backoff.
    ///
    /// - Throws: ``PushClientError/unreachable(url:detail:)`` after `reconnect.maximumFailures` failed attempts in a
    ///   row; an error thrown by `onKnock` ends listening (that message is not acknowledged).
    public func listen(
        subscriptionSecret: String,
        keys: WebPushReceiverKeys,
        reconnect: ReconnectPolicy = .default,
        onRejected: @escaping @Sendable (PushClientError) async -> Void = { _ in },
        onKnock: @escaping @Sendable (IncomingKnock) async throws -> KnockListenDecision
    ) async throws {
        let url = socketURL(secret: subscriptionSecret)
        let stopped = StopFlag()
        var failures = 0
        var delay = reconnect.initialDelay
        while !Task.isCancelled {
            let configuration = WebSocketClientConfiguration(maxFrameSize: PushClientLimits.maxSocketMessageBytes, autoPing: .enabled(timePeriod: .seconds(25)))
            var connected = false
            do {
                _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    var iterator = inbound.makeAsyncIterator()
                    while let message = try await iterator.nextMessage(maxSize: PushClientLimits.maxSocketMessageBytes) {
                        let bytes: [UInt8] = switch message {
                        case .text(let text): Array(text.utf8)
                        case .binary(let buffer): Array(buffer.readableBytesView)
                        }
                        let frame: PushServiceFrame
                        do throws(PushClientError) { frame = try PushServiceFrame(bytes: bytes) } catch {
                            await onRejected(error)
                            continue
                        }
                        let knock: IncomingKnock
                        do throws(PushClientError) { knock = try Self.open(frame, keys: keys) } catch {
                            // Not ours or not a knock: dropped, or it would come back on every connection.
                            await onRejected(error)
                            try await outbound.writeTextMessage(PushServiceFrame.ack(frame.id))
                            continue
                        }
                        let decision: KnockListenDecision
                        do { decision = try await onKnock(knock) } catch { throw HandlerError(error: error) }
                        try await outbound.writeTextMessage(PushServiceFrame.ack(frame.id))
                        if case .stop = decision {
                            stopped.value.withLock { $0 = true }
                            return
                        }
                    }
                }
                connected = true
            } catch let error as HandlerError {
                throw error.error
            } catch {
                failures += 1
                if let limit = reconnect.maximumFailures, failures >= limit {
                    throw PushClientError.unreachable(url: PushHTTP.shown(url), detail: String(describing: error))
                }
            }
            if stopped.value.withLock({ $0 }) { return }
            if connected {
                failures = 0
                delay = reconnect.initialDelay
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, reconnect.maximumDelay)
        }
    }

    /// Decrypts and reads one message.
    static func open(_ frame: PushServiceFrame, keys: WebPushReceiverKeys) throws(PushClientError) -> IncomingKnock {
        let plaintext: [UInt8]
        do { plaintext = try WebPushDecryption.decrypt(frame.body, with: keys) } catch {
            throw .undecryptable("message \(frame.id) does not decrypt: \(error.description)")
        }
        let body: KnockBody
        do throws(KnockBodyError) { body = try KnockBody(bytes: plaintext) } catch { throw .undecryptable(error.reason) }
        return IncomingKnock(messageID: frame.id, body: body, urgency: frame.urgency)
    }
}

/// Set when the handler asked to stop (shared with the WebSocket handler).
final class StopFlag: Sendable {
    let value = Mutex(false)
}

/// Carries an error of the caller's handler out of the WebSocket client unchanged.
struct HandlerError: Error {
    let error: any Error
}

/// Path segments built only from unreserved characters.
enum GatewayPath {
    static func segment(_ text: String) -> String {
        String(text.unicodeScalars.filter(CharacterSetLite.isUnreserved).map(Character.init))
    }
}
