import KithCanonical
import KithRendezvous

extension FuzzTarget {
    /// A WebSocket message from a signaling client (what `kith serve` reads) and from a server
    /// (what Kith's client reads): an accepted message re-encodes to a message equal to it.
    static let signaling = FuzzTarget(name: "signaling", summary: "KithRendezvous signaling messages, client and server side") { input in
        if let message = try? ClientMessage(bytes: input) {
            FuzzProperty.require((try? ClientMessage(bytes: Array(message.text.utf8))) == message, "a client message does not survive re-encoding")
        }
        if let message = try? ServerMessage(bytes: input) {
            FuzzProperty.require((try? ServerMessage(bytes: Array(message.text.utf8))) == message, "a server message does not survive re-encoding")
        }
    }

    /// REST bodies of the rendezvous API (both directions) through the server's bounded JSON codec,
    /// and push gateway bodies through the gateway's JSON bounds.
    static let restBodies = FuzzTarget(name: "rest-bodies", summary: "KithRendezvous REST bodies and push gateway JSON bodies") { input in
        if let object = try? RendezvousJSON.parseObject(input, limits: RendezvousJSON.restLimits) {
            _ = try? CreateRoomRequest(json: object)
            _ = try? AcceptRoomRequest(json: object)
            _ = try? CheckRoomRequest(json: object)
            _ = try? RoomIDBody(json: object)
            _ = try? PurgeRequest(json: object)
            _ = try? CreateRoomResponse(json: object)
            _ = try? RoomInfo(json: object)
            _ = try? PurgeResponse(json: object)
            _ = RendezvousErrorBody(json: object)
        }
        let gateway = JSONLimits(maxBytes: 16_384, maxDepth: 4, maxStringBytes: 16_384, maxContainerElements: 64, maxTotalValues: 256)
        _ = try? CanonicalJSON.parse(input, limits: gateway)
    }

    /// A binary relay message (a link frame or a NanoTDF) as the relay transport reads it, and the same bytes as an
    /// opened recovery relay message (what a guardian or a new device reads from the other side).
    static let relayMessage = FuzzTarget(name: "relay-message", summary: "KithRendezvous relay messages and recovery relay messages") { input in
        if let recovery = try? RecoveryRelayMessage(decoding: input) {
            FuzzProperty.require((try? RecoveryRelayMessage(decoding: recovery.encoded)) == recovery, "a recovery relay message does not survive re-encoding")
        }
        guard let message = try? RelayMessage(decoding: input) else { return }
        FuzzProperty.require((try? RelayMessage(decoding: message.encoded)) == message, "a relay message does not survive re-encoding")
    }
}
