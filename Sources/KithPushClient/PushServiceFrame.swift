import KithCanonical
import KithPush

/// One message frame of the push service's subscriber WebSocket:
/// `{"type":"message","id":"<id>","body":"<base64url of the aes128gcm body>","urgency":"normal","topic"?:"…"}`.
struct PushServiceFrame: Sendable, Equatable {
    let id: String
    let body: [UInt8]
    let urgency: String?
    let topic: String?

    /// Reads a frame strictly: bounded size, a printable id, a body of at most 4096 bytes.
    init(bytes: [UInt8]) throws(PushClientError) {
        guard bytes.count <= PushClientLimits.maxSocketMessageBytes,
              let object = (try? CanonicalJSON.parse(bytes, limits: PushClientLimits.frameJSON))?.objectValue else {
            throw .invalidResponse(status: 101, reason: "a push service frame is not a bounded JSON object")
        }
        guard object["type"]?.stringValue == "message" else {
            throw .invalidResponse(status: 101, reason: "unknown push service frame type")
        }
        guard let id = object["id"]?.stringValue, !id.isEmpty, id.utf8.count <= PushClientLimits.maxMessageIDBytes,
              id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else {
            throw .invalidResponse(status: 101, reason: "a push message id must be 1...\(PushClientLimits.maxMessageIDBytes) printable characters")
        }
        guard let text = object["body"]?.stringValue, let body = try? Base64URL.decode(text),
              !body.isEmpty, body.count <= PushLimits.maxPushMessageBytes else {
            throw .invalidResponse(status: 101, reason: "a push message body must be base64url of 1...\(PushLimits.maxPushMessageBytes) bytes")
        }
        self.id = id
        self.body = body
        // Only RFC 8030 values pass on: anything else from the service is dropped, never shown.
        urgency = object["urgency"]?.stringValue.flatMap { WebPushUrgency(rawValue: $0)?.rawValue }
        topic = object["topic"]?.stringValue.flatMap { WebPushTopic.isValid($0) ? $0 : nil }
    }

    /// The acknowledgement of message `id`.
    static func ack(_ id: String) -> String {
        var object = JSONObject()
        object["type"] = .string("ack")
        object["id"] = .string(id)
        return String(decoding: CanonicalJSON.serialize(object), as: UTF8.self)
    }
}
