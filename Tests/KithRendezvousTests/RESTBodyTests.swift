import KithCanonical
import KithRendezvous
import Testing

@Suite("REST bodies: Inviso's shapes, strict validation")
struct RESTBodyTests {
    private func object(_ text: String) throws -> JSONObject {
        try RendezvousJSON.parseObject(Array(text.utf8), limits: RendezvousJSON.restLimits)
    }

    private func createError(_ text: String) throws -> RendezvousCodecError? {
        let parsed = try object(text)
        do throws(RendezvousCodecError) {
            _ = try CreateRoomRequest(json: parsed)
            return nil
        } catch {
            return error
        }
    }

    @Test("a create request decodes and encodes with Inviso's member names")
    func createRoundTrip() throws {
        let request = try CreateRoomRequest(json: try object(#"{"joinid":"123456","client1":"A-1","expiresInSeconds":300}"#))
        #expect(request.joinCode.text == "123456")
        #expect(request.client1.text == "A-1")
        #expect(request.expiresInSeconds == 300)
        #expect(RendezvousJSON.text(request.json) == #"{"client1":"A-1","expiresInSeconds":300,"joinid":"123456"}"#)
    }

    @Test("missing members are reported in Inviso's order; null and empty count as missing")
    func missingOrder() throws {
        #expect(try createError(#"{}"#) == .missingField("joinid"))
        #expect(try createError(#"{"joinid":"123456"}"#) == .missingField("client1"))
        #expect(try createError(#"{"joinid":"123456","client1":"a"}"#) == .missingField("expiresInSeconds"))
        #expect(try createError(#"{"joinid":"","client1":"a","expiresInSeconds":5}"#) == .missingField("joinid"))
        #expect(try createError(#"{"joinid":null,"client1":"a","expiresInSeconds":5}"#) == .missingField("joinid"))
        #expect(try createError(#"{"client1":"a","expiresInSeconds":0}"#)?.code == "missing_joinid")
    }

    @Test("expiresInSeconds is 1...86400, as an integer or a digit string, with Inviso's details")
    func expiryRange() throws {
        for good in ["1", "86400", "\"300\""] {
            #expect(try createError(#"{"joinid":"123456","client1":"a","expiresInSeconds":\#(good)}"#) == nil)
        }
        for bad in ["0", "86401", "-5", "\"12abc\"", "true", "\"\""] {
            let error = try createError(#"{"joinid":"123456","client1":"a","expiresInSeconds":\#(bad)}"#)
            if bad == "\"\"" {
                #expect(error == .missingField("expiresInSeconds"))
            } else {
                #expect(error == .invalidField("expiresInSeconds", reason: "must be 1-86400 seconds (1 sec to 24 hours)"))
                #expect(RendezvousErrorBody(rejecting: try #require(error)).json
                    == ["error": "invalid_expiresInSeconds", "details": "must be 1-86400 seconds (1 sec to 24 hours)"])
            }
        }
    }

    @Test("join codes: 6 to 64 letters, digits, - or _; longer codes accepted")
    func joinCodes() throws {
        #expect(JoinCode("123456") != nil)
        #expect(JoinCode(String(repeating: "a", count: 64)) != nil)
        #expect(JoinCode("Ab-_9z12") != nil)
        #expect(JoinCode("12345") == nil)
        #expect(JoinCode(String(repeating: "a", count: 65)) == nil)
        #expect(JoinCode("123 456") == nil)
        #expect(JoinCode("12345é") == nil)
        #expect(try createError(#"{"joinid":"12","client1":"a","expiresInSeconds":5}"#)?.code == "invalid_joinid")
        #expect(try createError(#"{"joinid":123456,"client1":"a","expiresInSeconds":5}"#)?.code == "invalid_joinid")
    }

    @Test("device and room ids: visible ASCII, bounded; descriptions are redacted")
    func identifiers() {
        #expect(DeviceID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F") != nil)
        #expect(DeviceID("") == nil)
        #expect(DeviceID("a b") == nil)
        #expect(DeviceID(String(repeating: "x", count: 129)) == nil)
        #expect(RoomID("r") != nil)
        let room = RoomID.random()
        #expect(room.text.count == 48)
        #expect(room.text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        #expect(RoomID.random() != room)
        #expect("\(room)" == "RoomID(redacted)")
        #expect("\(JoinCode.randomDigits())" == "JoinCode(redacted)")
        #expect(JoinCode.randomDigits(count: 8).text.count == 8)
        #expect(JoinCode.randomDigits(count: 2).text.count == 6)
        let client = ClientID.random().text
        #expect(client.count == 36)
        #expect(Array(client)[14] == "4")
    }

    @Test("purge: deviceIds wins over deviceId; empty, invalid and too many are Inviso's errors")
    func purge() throws {
        func decode(_ text: String) throws -> Result<PurgeRequest, RendezvousCodecError> {
            let parsed = try object(text)
            return Result { () throws(RendezvousCodecError) in try PurgeRequest(json: parsed) }
        }
        #expect(try decode(#"{"deviceIds":["a","b"]}"#).get().deviceIDs.map(\.text) == ["a", "b"])
        #expect(try decode(#"{"deviceId":"a"}"#).get().deviceIDs.map(\.text) == ["a"])
        #expect(try decode(#"{"deviceIds":["a"],"deviceId":"b"}"#).get().deviceIDs.map(\.text) == ["a"])
        #expect(throws: RendezvousCodecError.missingField("deviceIds_or_deviceId")) { try decode(#"{}"#).get() }
        #expect(throws: RendezvousCodecError.missingField("deviceIds_or_deviceId")) { try decode(#"{"deviceId":""}"#).get() }
        #expect(throws: RendezvousCodecError.emptyDeviceIDs) { try decode(#"{"deviceIds":[]}"#).get() }
        #expect(throws: RendezvousCodecError.invalidDeviceIDs(count: 2)) { try decode(#"{"deviceIds":["a",5," "]}"#).get() }
        let many = "[" + (0...256).map { "\"d\($0)\"" }.joined(separator: ",") + "]"
        #expect(throws: RendezvousCodecError.tooManyDeviceIDs(257)) { try decode(#"{"deviceIds":\#(many)}"#).get() }
        #expect(RendezvousErrorBody(rejecting: .invalidDeviceIDs(count: 2)).json == ["error": "invalid_device_ids", "count": 2])
        #expect(RendezvousErrorBody(rejecting: .emptyDeviceIDs).json == ["error": "empty_deviceIds_array"])
        #expect(RendezvousErrorBody(rejecting: .missingField("deviceIds_or_deviceId")).json == ["error": "missing_deviceIds_or_deviceId"])
    }

    @Test("responses round-trip through the codec")
    func responses() throws {
        let created = CreateRoomResponse(expiresAt: ExpiryTimestamp(millisecondsSinceEpoch: 1_735_689_900_123))
        #expect(RendezvousJSON.text(created.json) == #"{"exp":"2025-01-01T00:05:00.123Z","ok":true}"#)
        #expect(try CreateRoomResponse(json: created.json) == created)
        let info = RoomInfo(roomID: try #require(RoomID("r1")), client1: try #require(DeviceID("a")), client2: try #require(DeviceID("b")))
        #expect(RendezvousJSON.text(info.json) == #"{"client1":"a","client2":"b","roomid":"r1"}"#)
        #expect(try RoomInfo(json: info.json) == info)
        let purged = PurgeResponse(deviceIDCount: 2, roomsDeleted: 1, pendingsDeleted: 3)
        #expect(RendezvousJSON.text(purged.json) == #"{"deviceIdCount":2,"pendingsDeleted":3,"roomsDeleted":1,"success":true}"#)
        #expect(try PurgeResponse(json: purged.json) == purged)
    }

    @Test("malformed and oversized bodies are rejected by the bounded parser")
    func malformed() {
        let parse = { (text: String) throws(RendezvousCodecError) in _ = try RendezvousJSON.parseObject(Array(text.utf8), limits: RendezvousJSON.restLimits) }
        #expect(throws: RendezvousCodecError.notAnObject) { try parse("[1]") }
        #expect(throws: RendezvousCodecError.self) { try parse(#"{"a":1,"a":2}"#) }
        #expect(throws: RendezvousCodecError.self) { try parse(#"{"a":1.5}"#) }
        #expect(throws: RendezvousCodecError.self) { try parse(#"{"a":[[[1]]]}"#) }
        #expect(throws: RendezvousCodecError.self) { try parse(#"{"a":1} x"#) }
        #expect(throws: RendezvousCodecError.self) { try parse("{\"a\":\"" + String(repeating: "x", count: 70_000) + "\"}") }
    }
}
