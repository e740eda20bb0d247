import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("REST pairing: Inviso's endpoints with its defects fixed")
struct RESTPairingTests {
    @Test("create answers 201 with the expiry computed on the server's clock")
    func create() async throws {
        let (server, _, clock) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.create("123456", "dev-a", seconds: 300)
            #expect(answer.status == 201)
            #expect(answer.json["ok"] == "true")
            #expect(answer.json["exp"] == ExpiryTimestamp(millisecondsSinceEpoch: clock.nowMilliseconds() + 300_000).iso8601)
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test("a taken code answers 409; the creator's retry answers the first expiry; an expired code is free again")
    func duplicateCode() async throws {
        let (server, _, clock) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let first = try await client.create("123456", "dev-a", seconds: 60)
            let other = try await client.create("123456", "dev-x", seconds: 60)
            #expect(other.status == 409)
            #expect(other.json["error"] == "joinid_in_use")
            clock.advance(seconds: 10)
            let retry = try await client.create("123456", "dev-a", seconds: 600)
            #expect(retry.status == 201)
            #expect(retry.json["exp"] == first.json["exp"])
            clock.advance(seconds: 51)
            #expect(try await client.create("123456", "dev-x", seconds: 60).status == 201)
        }
    }

    @Test("validation errors use Inviso's strings and statuses")
    func validation() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let missing = try await client.call(.post, "/api/rooms", #"{"client1":"a","expiresInSeconds":5}"#)
            #expect(missing.status == 400)
            #expect(missing.text == #"{"error":"missing_joinid"}"#)
            let empty = try await client.call(.post, "/api/rooms", nil)
            #expect(empty.text == #"{"error":"missing_joinid"}"#)
            let expiry = try await client.create("123456", "a", seconds: 86_401)
            #expect(expiry.text == #"{"details":"must be 1-86400 seconds (1 sec to 24 hours)","error":"invalid_expiresInSeconds"}"#)
            let malformed = try await client.call(.post, "/api/rooms", "{nope")
            #expect(malformed.status == 400)
            #expect(malformed.json["error"] == "invalid_json")
            let huge = try await client.call(.post, "/api/rooms", "{\"a\":\"" + String(repeating: "x", count: 70_000) + "\"}")
            #expect(huge.status == 413)
            #expect(huge.json["error"] == "body_too_large")
            #expect(try await client.accept("123456", "").text == #"{"error":"missing_client2"}"#)
            #expect(try await client.check("1", "a").json["error"] == "invalid_joinid")
        }
    }

    @Test("accept: one winner, 409 for the others, idempotent for the winner, 404 when unknown or expired")
    func accept() async throws {
        let (server, _, clock) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            _ = try await client.create("123456", "dev-a", seconds: 60)
            let won = try await client.accept("123456", "dev-b")
            #expect(won.status == 200)
            let room = try #require(won.json["roomid"])
            #expect(room.count == 48)
            let lost = try await client.accept("123456", "dev-c")
            #expect(lost.status == 409)
            #expect(lost.text == #"{"error":"conflict"}"#)
            #expect(try await client.accept("123456", "dev-b").json["roomid"] == room)
            #expect(try await client.accept("654321", "dev-b").text == #"{"error":"not_found_or_expired"}"#)
            _ = try await client.create("777777", "dev-a", seconds: 5)
            clock.advance(seconds: 5)
            #expect(try await client.accept("777777", "dev-b").status == 404)
        }
    }

    @Test("check: 204 while pending, 200 with the room once accepted (also after the code expired), 404 otherwise")
    func check() async throws {
        let (server, _, clock) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            _ = try await client.create("123456", "dev-a", seconds: 60)
            let pending = try await client.check("123456", "dev-a")
            #expect(pending.status == 204)
            #expect(pending.text.isEmpty)
            #expect(try await client.check("123456", "dev-x").status == 404)
            let room = try #require(try await client.accept("123456", "dev-b").json["roomid"])
            // Inviso's race: accepted just before expiry, checked after it. Kith still answers the room.
            clock.advance(seconds: 120)
            let accepted = try await client.check("123456", "dev-a")
            #expect(accepted.status == 200)
            #expect(accepted.text == #"{"roomid":"\#(room)"}"#)
            #expect(try await client.check("123456", "dev-a").json["roomid"] == room)
            // The code is free again once client1 has the room.
            #expect(try await client.create("123456", "dev-z", seconds: 60).status == 201)
            _ = try await client.create("999999", "dev-a", seconds: 10)
            clock.advance(seconds: 10)
            #expect(try await client.check("999999", "dev-a").text == #"{"error":"not_found_or_expired"}"#)
        }
    }

    @Test("get, delete and purge of rooms")
    func rooms() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let room = try await client.pairedRoom("123456", client1: "dev-a", client2: "dev-b")
            let info = try await client.call(.get, "/api/rooms?roomid=\(room)&deviceId=dev-a")
            #expect(info.status == 200)
            #expect(info.text == #"{"client1":"dev-a","client2":"dev-b","roomid":"\#(room)"}"#)
            #expect(try await client.call(.get, "/api/rooms").text == #"{"error":"missing_roomid"}"#)
            #expect(try await client.call(.get, "/api/rooms?roomid=nope").status == 404)
            let deleted = try await client.call(.delete, "/api/rooms", #"{"roomid":"\#(room)"}"#)
            #expect(deleted.status == 200)
            #expect(deleted.text == "OK")
            #expect(try await client.call(.delete, "/api/rooms", #"{"roomid":"\#(room)"}"#).status == 200)
            #expect(try await client.call(.delete, "/api/rooms", "{}").text == #"{"error":"missing_roomid"}"#)
            #expect(try await client.call(.get, "/api/rooms?roomid=\(room)").status == 404)
        }
    }

    @Test("purge removes every pending pairing and room of the device ids")
    func purge() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let room = try await client.pairedRoom("111111", client1: "dev-a", client2: "dev-b")
            _ = try await client.create("222222", "dev-a")
            _ = try await client.create("333333", "dev-c")
            let purged = try await client.call(.post, "/api/user/purge", #"{"deviceIds":["dev-b","dev-a"]}"#)
            #expect(purged.text == #"{"deviceIdCount":2,"pendingsDeleted":2,"roomsDeleted":1,"success":true}"#)
            #expect(try await client.call(.get, "/api/rooms?roomid=\(room)").status == 404)
            #expect(try await client.check("222222", "dev-a").status == 404)
            #expect(try await client.check("333333", "dev-c").status == 204)
            let legacy = try await client.call(.post, "/api/user/purge", #"{"deviceId":"dev-c"}"#)
            #expect(legacy.json["pendingsDeleted"] == "1")
            #expect(try await client.call(.post, "/api/user/purge", "{}").text == #"{"error":"missing_deviceIds_or_deviceId"}"#)
            #expect(try await client.call(.post, "/api/user/purge", #"{"deviceIds":[]}"#).text == #"{"error":"empty_deviceIds_array"}"#)
            #expect(try await client.call(.post, "/api/user/purge", #"{"deviceIds":["a",""]}"#).text == #"{"count":1,"error":"invalid_device_ids"}"#)
        }
    }

    @Test("nothing lists live rooms; Inviso's retired endpoints answer 410")
    func noListing() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            _ = try await client.pairedRoom()
            #expect(try await client.call(.get, "/rooms").status == 404)
            #expect(try await client.call(.get, "/api/rooms/abc").text == #"{"error":"use_new_endpoints"}"#)
            #expect(try await client.call(.post, "/api/rooms/abc/accept").status == 410)
            #expect(try await client.call(.get, "/").status == 200)
        }
    }

    @Test("rooms expire after their lifetime without members; the sweep removes them")
    func roomExpiry() async throws {
        var limits = TestServer.limits()
        limits.roomLifetimeSeconds = 3_600
        let (server, store, clock) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let room = try await client.pairedRoom()
            clock.advance(seconds: 3_599)
            #expect(try await client.call(.get, "/api/rooms?roomid=\(room)").status == 200)
            clock.advance(seconds: 1)
            #expect(try await client.call(.get, "/api/rooms?roomid=\(room)").status == 404)
            let swept = try await store.sweep(now: clock.nowMilliseconds())
            #expect(swept.roomsDeleted == 1)
            #expect(swept.pendingsDeleted == 1)
        }
    }
}
