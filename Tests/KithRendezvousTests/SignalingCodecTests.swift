import KithCanonical
import KithRendezvous
import Testing

@Suite("Signaling messages: Inviso's types and fields, strict bounds")
struct SignalingCodecTests {
    private func decode(_ text: String) -> Result<ClientMessage, RendezvousCodecError> {
        Result { () throws(RendezvousCodecError) in try ClientMessage(bytes: Array(text.utf8)) }
    }

    private func errorText(_ text: String) -> String? {
        if case .failure(let error) = decode(text) { return SignalingText.error(for: error) }
        return nil
    }

    @Test("client messages decode")
    func clientMessages() throws {
        let room = try #require(RoomID("r1"))
        #expect(try decode(#"{"type":"join_room","roomId":"r1"}"#).get() == .joinRoom(roomID: room, deviceID: nil))
        #expect(try decode(#"{"type":"join_room","roomId":"r1","deviceId":"d"}"#).get() == .joinRoom(roomID: room, deviceID: DeviceID("d")))
        #expect(try decode(#"{"type":"leave_room"}"#).get() == .leaveRoom)
        #expect(try decode(#"{"type":"ping"}"#).get() == .ping)
        #expect(try decode(#"{"type":"webrtc_offer","sdp":"v=0"}"#).get() == .signal(.offer(sdp: "v=0")))
        #expect(try decode(#"{"type":"webrtc_answer","sdp":"v=0"}"#).get() == .signal(.answer(sdp: "v=0")))
        let candidate = ICECandidate(candidate: "candidate:1 1 udp 1 127.0.0.1 9 typ host", sdpMLineIndex: 0, sdpMid: "0")
        #expect(try decode(#"{"type":"ice_candidate","candidate":{"candidate":"candidate:1 1 udp 1 127.0.0.1 9 typ host","sdpMLineIndex":0,"sdpMid":"0","extra":1}}"#).get()
            == .signal(.iceCandidate(candidate)))
        #expect(try decode(#"{"type":"key_exchange","publicKey":"AAAA","sessionId":"r1","timestamp":1700000000000}"#).get()
            == .signal(.keyExchange(publicKey: "AAAA", sessionID: "r1", timestamp: 1_700_000_000_000)))
        #expect(try decode(#"{"type":"key_exchange_complete","sessionId":"r1"}"#).get() == .signal(.keyExchangeComplete(sessionID: "r1", timestamp: nil)))
        // Unknown members are ignored.
        #expect(try decode(#"{"type":"ping","extra":[1,2]}"#).get() == .ping)
    }

    @Test("client messages encode and decode back", arguments: [
        ClientMessage.leaveRoom, .ping, .signal(.offer(sdp: "o")), .signal(.answer(sdp: "a")),
        .signal(.iceCandidate(ICECandidate(candidate: "", sdpMLineIndex: nil, sdpMid: nil, usernameFragment: "u"))),
        .signal(.keyExchange(publicKey: nil, sessionID: nil, timestamp: nil)),
        .signal(.keyExchangeComplete(sessionID: "s", timestamp: 5)),
    ])
    func clientRoundTrip(message: ClientMessage) throws {
        #expect(try ClientMessage(bytes: Array(message.text.utf8)) == message)
    }

    @Test("rejections carry Inviso's error strings")
    func rejections() {
        #expect(errorText("not json") == "Invalid JSON format")
        #expect(errorText("[1]") == "Invalid JSON format")
        #expect(errorText(#"{"type":"ping","type":"ping"}"#) == "Invalid JSON format")
        #expect(errorText(#"{"roomId":"r"}"#) == "Unknown message type: undefined")
        #expect(errorText(#"{"type":7}"#) == "Unknown message type: undefined")
        #expect(errorText(#"{"type":"dance"}"#) == "Unknown message type: dance")
        #expect(errorText(#"{"type":"room_ready"}"#) == "Unknown message type: room_ready")
        #expect(errorText(#"{"type":"join_room"}"#) == "Invalid roomId")
        #expect(errorText(#"{"type":"join_room","roomId":5}"#) == "Invalid roomId")
        #expect(errorText(#"{"type":"join_room","roomId":"has space"}"#) == "Invalid roomId")
        #expect(errorText(#"{"type":"webrtc_offer"}"#) == "Invalid sdp")
        #expect(errorText(#"{"type":"ice_candidate","candidate":"x"}"#) == "Invalid candidate")
        #expect(errorText(#"{"type":"ice_candidate","candidate":{"candidate":"x","sdpMLineIndex":-1}}"#) == "Invalid candidate")
        #expect(errorText(#"{"type":"key_exchange","timestamp":1.5}"#) == "Invalid JSON format")
        #expect(errorText(#"{"type":"key_exchange","publicKey":7}"#) == "Invalid publicKey")
        let longType = String(repeating: "t", count: 200)
        #expect(errorText(#"{"type":"\#(longType)"}"#) == "Unknown message type: " + String(repeating: "t", count: 64))
    }

    @Test("size, depth and count bounds")
    func bounds() {
        let big = "{\"type\":\"webrtc_offer\",\"sdp\":\"" + String(repeating: "s", count: 70_000) + "\"}"
        #expect(errorText(big) == "Invalid JSON format")
        let longSDP = "{\"type\":\"webrtc_offer\",\"sdp\":\"" + String(repeating: "s", count: 60_001) + "\"}"
        #expect(errorText(longSDP) == "Invalid sdp")
        #expect(errorText(#"{"type":"ping","a":{"b":{"c":{}}}}"#) == "Invalid JSON format")
        let members = (0..<40).map { "\"k\($0)\":1" }.joined(separator: ",")
        #expect(errorText(#"{"type":"ping",\#(members)}"#) == "Invalid JSON format")
        let longCandidate = String(repeating: "c", count: 2_049)
        #expect(errorText(#"{"type":"ice_candidate","candidate":{"candidate":"\#(longCandidate)"}}"#) == "Invalid candidate")
    }

    @Test("server messages have Inviso's exact members")
    func serverMessages() throws {
        let room = try #require(RoomID("r1"))
        let client = try #require(ClientID("c1"))
        let cases: [(ServerMessage, String)] = [
            (.connected(clientID: client, server: SignalingText.serverName), #"{"clientId":"c1","server":"WebRTC P2P Signaling Server","type":"connected"}"#),
            (.roomJoined(roomID: room, userCount: 1, isInitiator: true, ready: false), #"{"isInitiator":true,"ready":false,"roomId":"r1","type":"room_joined","userCount":1}"#),
            (.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: false),
             #"{"isInitiator":false,"message":"Both users connected. Ready for WebRTC handshake.","roomId":"r1","type":"room_ready","userCount":2}"#),
            (.roomFull(roomID: room, error: SignalingText.roomFull), #"{"error":"Room is full (max 2 users)","roomId":"r1","type":"room_full"}"#),
            (.relayed(RelayedSignal(from: client, roomID: room, payload: .offer(sdp: "v=0"))), #"{"from":"c1","roomId":"r1","sdp":"v=0","type":"webrtc_offer"}"#),
            (.relayed(RelayedSignal(from: client, roomID: room, payload: .iceCandidate(ICECandidate(candidate: "c", sdpMLineIndex: 0, sdpMid: "0")))),
             #"{"candidate":{"candidate":"c","sdpMLineIndex":0,"sdpMid":"0"},"from":"c1","roomId":"r1","type":"ice_candidate"}"#),
            (.relayed(RelayedSignal(from: client, roomID: room, payload: .keyExchange(publicKey: "k", sessionID: "r1", timestamp: nil))),
             #"{"from":"c1","publicKey":"k","roomId":"r1","sessionId":"r1","type":"key_exchange"}"#),
            (.leftRoom(roomID: nil), #"{"roomId":null,"type":"left_room"}"#),
            (.leftRoom(roomID: room), #"{"roomId":"r1","type":"left_room"}"#),
            (.peerLeft(message: SignalingText.peerLeft), #"{"message":"Other user left the room","type":"peer_left"}"#),
            (.peerDisconnected(message: SignalingText.peerDisconnected), #"{"message":"Other user disconnected","type":"peer_disconnected"}"#),
            (.pong, #"{"type":"pong"}"#),
            (.error(SignalingText.invalidRoomID), #"{"error":"Invalid roomId","type":"error"}"#),
        ]
        for (message, text) in cases {
            #expect(message.text == text)
            #expect(try ServerMessage(bytes: Array(text.utf8)) == message)
        }
        #expect(Set(SignalingMessageType.allCases.map(\.rawValue)).count == 21)
    }
}
