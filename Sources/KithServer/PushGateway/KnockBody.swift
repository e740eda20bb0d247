import KithCanonical
import KithRendezvous

/// The knock as providers carry it, ChatSecure's shape in canonical key order:
/// `{"message":{"data":<string or null>,"token":"<40 lowercase hex>"}}`. No message text, ever.
enum KnockBody {
    static func bytes(tokenHex: String, data: String?) -> [UInt8] {
        let message: JSONObject = ["data": data.map(JSONValue.string) ?? .null, "token": .string(tokenHex)]
        return RendezvousJSON.bytes(["message": .object(message)])
    }
}
