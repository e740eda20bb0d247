import Hummingbird
import KithRendezvous
import Logging

/// The REST endpoints, with Inviso's shapes and status codes and its defects fixed
/// (`docs/SERVER.md`).
struct RendezvousAPI: Sendable {
    let store: any RendezvousStore
    let clock: any ServerClock
    let limits: RendezvousServerLimits
    let hub: SignalingHub
    let requestsPerSource: RateLimiter
    let guessesPerSource: RateLimiter
    let acceptsPerCode: RateLimiter
    let logger: Logger
    let turn: TURNConfiguration?
    let metrics: ServerMetrics

    init(store: any RendezvousStore, clock: any ServerClock, limits: RendezvousServerLimits, hub: SignalingHub, logger: Logger,
         turn: TURNConfiguration? = nil, metrics: ServerMetrics) {
        self.turn = turn
        self.metrics = metrics
        self.store = store
        self.clock = clock
        self.limits = limits
        self.hub = hub
        requestsPerSource = RateLimiter(rule: limits.requestsPerSource, maximumKeys: limits.rateLimiterKeys)
        guessesPerSource = RateLimiter(rule: limits.guessesPerSource, maximumKeys: limits.rateLimiterKeys)
        acceptsPerCode = RateLimiter(rule: limits.acceptsPerCode, maximumKeys: limits.rateLimiterKeys)
        self.logger = logger
    }

    // MARK: Endpoints

    /// `POST /api/rooms` → `201 {ok, exp}` | `400` | `409 joinid_in_use` | `429`.
    func createRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let create = try RequestBody.decode(try await RequestBody.object(request), CreateRoomRequest.init(json:))
        let now = clock.nowMilliseconds()
        let expiresAt = now + Int64(create.expiresInSeconds) * 1_000
        let outcome = try await stored { () async throws(RendezvousStoreError) in
            try await store.createPending(joinCode: create.joinCode, client1: create.client1, expiresAt: expiresAt, now: now)
        }
        switch outcome {
        case .created(let expiry):
            metrics.roomCreated()
            return RESTResponse.json(.created, CreateRoomResponse(expiresAt: ExpiryTimestamp(millisecondsSinceEpoch: expiry)).json)
        case .joinCodeInUse:
            throw RESTRejection(.conflict, RendezvousErrorBody(
                error: RendezvousErrorCode.joinCodeInUse, details: "a live pairing already uses this join code; pick another code"))
        }
    }

    /// `POST /api/rooms/accept` → `200 {roomid}` | `400` | `404 not_found_or_expired` | `409 conflict` | `429`.
    func acceptRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        try limit(guessesPerSource, context.sourceKey)
        let accept = try RequestBody.decode(try await RequestBody.object(request), AcceptRoomRequest.init(json:))
        try limit(acceptsPerCode, "code:" + accept.joinCode.text)
        let now = clock.nowMilliseconds()
        let roomExpiry = now + Int64(limits.roomLifetimeSeconds) * 1_000
        let outcome = try await stored { () async throws(RendezvousStoreError) in
            try await store.accept(joinCode: accept.joinCode, client2: accept.client2, proposedRoom: .random(), roomExpiresAt: roomExpiry, now: now)
        }
        switch outcome {
        case .accepted(let room):
            metrics.roomAccepted()
            return RESTResponse.json(.ok, RoomIDBody(roomID: room).json)
        case .conflict: throw RESTRejection(.conflict, RendezvousErrorBody(error: RendezvousErrorCode.conflict))
        case .notFoundOrExpired: throw RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFoundOrExpired))
        }
    }

    /// `POST /api/rooms/check` → `204` pending | `200 {roomid}` | `400` | `404 not_found_or_expired` | `429`.
    func checkRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        try limit(guessesPerSource, context.sourceKey)
        let check = try RequestBody.decode(try await RequestBody.object(request), CheckRoomRequest.init(json:))
        let now = clock.nowMilliseconds()
        switch try await stored({ () async throws(RendezvousStoreError) in try await store.check(joinCode: check.joinCode, client1: check.client1, now: now) }) {
        case .pending: return RESTResponse.empty(.noContent)
        case .accepted(let room): return RESTResponse.json(.ok, RoomIDBody(roomID: room).json)
        case .notFoundOrExpired: throw RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFoundOrExpired))
        }
    }

    /// `GET /api/rooms?roomid=` → `200 {roomid, client1, client2}` | `400 missing_roomid` | `404 not_found` | `429`.
    func getRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        guard let text = request.uri.queryParameters.get("roomid"), !text.isEmpty else {
            throw RESTRejection(rejecting: .missingField("roomid"))
        }
        let notFound = RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFound))
        guard let room = RoomID(text) else { throw notFound }
        let now = clock.nowMilliseconds()
        guard let info = try await stored({ () async throws(RendezvousStoreError) in try await store.room(room, now: now) }) else { throw notFound }
        return RESTResponse.json(.ok, info.json)
    }

    /// `DELETE /api/rooms {roomid}` → `200 OK` (idempotent) | `400` | `429`; members still
    /// connected get `peer_left`.
    func deleteRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let room = try RequestBody.decode(try await RequestBody.object(request), RoomIDBody.init(json:)).roomID
        let members = try await stored({ () async throws(RendezvousStoreError) in try await store.deleteRoom(room) })
        hub.roomsRemoved(members.map { RoomMembership(room: room, member: $0) })
        return RESTResponse.text(.ok, "OK")
    }

    /// `POST /api/user/purge {deviceIds}` → `200 {success, deviceIdCount, roomsDeleted, pendingsDeleted}` | `400` | `429`.
    func purge(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let purge = try RequestBody.decode(try await RequestBody.object(request), PurgeRequest.init(json:))
        let outcome = try await stored({ () async throws(RendezvousStoreError) in try await store.purge(deviceIDs: purge.deviceIDs) })
        hub.roomsRemoved(outcome.affectedMembers)
        let response = PurgeResponse(deviceIDCount: purge.deviceIDs.count, roomsDeleted: outcome.roomsDeleted, pendingsDeleted: outcome.pendingsDeleted)
        return RESTResponse.json(.ok, response.json)
    }

    /// `GET /api/turn-credentials?roomid=&deviceId=` → `200 {username, password, ttl, uris}` | `400` | `404` | `429`.
    ///
    /// Only a device of a live room (paired by a join code) gets credentials, so the TURN server does not become an
    /// open relay; the username names the room, never the device id.
    func turnCredentials(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        guard let turn else { throw RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFound, details: "this server hands out no TURN credentials")) }
        guard let roomText = request.uri.queryParameters.get("roomid"), !roomText.isEmpty else { throw RESTRejection(rejecting: .missingField("roomid")) }
        guard let deviceText = request.uri.queryParameters.get("deviceId"), !deviceText.isEmpty else { throw RESTRejection(rejecting: .missingField("deviceId")) }
        let notFound = RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFound))
        guard let room = RoomID(roomText), let device = DeviceID(deviceText) else { throw notFound }
        let now = clock.nowMilliseconds()
        guard let info = try await stored({ () async throws(RendezvousStoreError) in try await store.room(room, now: now) }),
              SecretComparison.equal(info.client1.text, device.text) || SecretComparison.equal(info.client2.text, device.text) else { throw notFound }
        return RESTResponse.json(.ok, turn.credentials(for: room.text, nowSeconds: now / 1_000).json)
    }

    // MARK: Helpers

    private func limit(_ limiter: RateLimiter, _ key: String) throws(RESTRejection) {
        if case .limited(let seconds) = limiter.take(key, now: clock.nowMilliseconds()) {
            throw RESTRejection.rateLimited(retryAfterSeconds: seconds)
        }
    }

    private func stored<Value>(_ body: () async throws(RendezvousStoreError) -> Value) async throws(RESTRejection) -> Value {
        do throws(RendezvousStoreError) {
            return try await body()
        } catch {
            logger.error("rendezvous store failed", metadata: ["error": "\(error)"])
            throw RESTRejection.internalError
        }
    }
}
