import KithCanonical
import KithRendezvous
import NIOCore

/// The text form of a ``SignalEvent`` for another node (a PostgreSQL `NOTIFY` payload or a
/// spooled row): one flat JSON object, read back through the same bounded codec as signaling.
///
/// `{"to", "kind", "room", "node"?, "from"?, "message"?, "bytes"?}`: `to` is the target
/// connection's client id; `node`/`from` the sender's address; `message` a server message as
/// JSON text; `bytes` a relay frame in base64url. Only nodes write these, but a payload is still
/// parsed strictly and bounded, like everything read from the network.
enum SignalEventCodec {
    /// Bounds of one encoded event: a 64 KiB relay frame in base64url, or a 64 KiB message.
    static let limits = JSONLimits(
        maxBytes: 4 * RendezvousLimits.maximumSignalingMessageBytes,
        maxDepth: 1,
        maxStringBytes: 3 * RendezvousLimits.maximumSignalingMessageBytes,
        maxContainerElements: 8,
        maxTotalValues: 9)

    /// Why an encoded event was refused.
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "malformed cross-node event: \(reason)" }
    }

    static func encode(_ event: SignalEvent, to client: ClientID) -> String {
        var object: JSONObject = ["to": .string(client.text), "room": .string(event.room.text)]
        func from(_ address: MemberAddress) {
            object["node"] = .string(address.node)
            object["from"] = .string(address.client.text)
        }
        switch event {
        case .peerJoined(let peer, _, let ready):
            object["kind"] = "joined"
            from(peer)
            object["message"] = .string(ready.text)
        case .relayed(let sender, _, let message):
            object["kind"] = "relayed"
            from(sender)
            object["message"] = .string(message.text)
        case .peerGone(_, let message):
            object["kind"] = "gone"
            object["message"] = .string(message.text)
        case .removed(_, let message):
            object["kind"] = "removed"
            object["message"] = .string(message.text)
        case .relayRequested(let sender, _):
            object["kind"] = "relay_start"
            from(sender)
        case .relayFrame(let sender, _, let bytes):
            object["kind"] = "frame"
            from(sender)
            object["bytes"] = .string(Base64URL.encode(bytes.readableBytesView))
        }
        return RendezvousJSON.text(object)
    }

    static func decode(_ text: String) throws(Malformed) -> (event: SignalEvent, to: ClientID) {
        let object: JSONObject
        do throws(RendezvousCodecError) {
            object = try RendezvousJSON.parseObject(Array(text.utf8), limits: limits)
        } catch {
            throw Malformed(reason: error.description)
        }
        guard case .string(let toText)? = object["to"], let to = ClientID(toText) else { throw Malformed(reason: "to") }
        guard case .string(let roomText)? = object["room"], let room = RoomID(roomText) else { throw Malformed(reason: "room") }
        guard case .string(let kind)? = object["kind"] else { throw Malformed(reason: "kind") }
        func sender() throws(Malformed) -> MemberAddress {
            guard case .string(let node)? = object["node"], !node.isEmpty, node.utf8.count <= 128,
                  case .string(let client)? = object["from"], let clientID = ClientID(client)
            else { throw Malformed(reason: "from") }
            return MemberAddress(node: node, client: clientID)
        }
        func message() throws(Malformed) -> ServerMessage {
            guard case .string(let messageText)? = object["message"] else { throw Malformed(reason: "message") }
            do throws(RendezvousCodecError) {
                return try ServerMessage(bytes: Array(messageText.utf8))
            } catch {
                throw Malformed(reason: "message: \(error.description)")
            }
        }
        let event: SignalEvent
        switch kind {
        case "joined": event = .peerJoined(peer: try sender(), room: room, ready: try message())
        case "relayed": event = .relayed(from: try sender(), room: room, message: try message())
        case "gone": event = .peerGone(room: room, message: try message())
        case "removed": event = .removed(room: room, message: try message())
        case "relay_start": event = .relayRequested(from: try sender(), room: room)
        case "frame":
            guard case .string(let encoded)? = object["bytes"], let bytes = try? Base64URL.decode(encoded) else { throw Malformed(reason: "bytes") }
            event = .relayFrame(from: try sender(), room: room, bytes: ByteBuffer(bytes: bytes))
        default: throw Malformed(reason: "kind")
        }
        return (event, to)
    }
}
