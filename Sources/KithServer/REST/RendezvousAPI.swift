import Hummingbird
import KithCanonical
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
    let guessing: JoinCodeGuessing
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
        guessing = JoinCodeGuessing(limits: limits, metrics: metrics)
        acceptsPerCode = RateLimiter(rule: limits.acceptsPerCode, maximumKeys: limits.rateLimiterKeys)
        self.logger = logger
    }

    // MARK: Endpoints

    /// `POST /api/rooms` → `201 {ok, exp}` | `400` | `403 claim_required` | `409 joinid_in_use` | `429`.
    ///
    /// A create is a guess too (`409` tells a live code from a free one): it needs a guess of the
    /// source's and of the node's budget, and one that collides keeps them spent.
    func createRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let create = try RequestBody.decode(try await RequestBody.object(request), CreateRoomRequest.init(json:))
        // A claimed code (an invite's) is offered only by whoever holds the secret it commits to: reading the invite
        // is not enough to squat it.
        if JoinCodeClaim.isClaimed(create.joinCode), !JoinCodeClaim.verifies(claim: create.claim ?? "", for: create.joinCode) {
            throw RESTRejection(.forbidden, RendezvousErrorBody(
                error: RendezvousErrorCode.claimRequired, details: "this join code can only be offered with the secret it commits to (its invite's creator holds it)"))
        }
        let now = clock.nowMilliseconds()
        try guessing.spendSource(context.sourceKey, now: now)
        try guessing.spendNode(now: now)
        let expiresAt = now + Int64(create.expiresInSeconds) * 1_000
        let outcome = try await stored { () async throws(RendezvousStoreError) in
            try await store.createPending(joinCode: create.joinCode, client1: create.client1, presence: create.presence, expiresAt: expiresAt, now: now)
        }
        guessing.settle(right: outcome != .joinCodeInUse, refundingSource: context.sourceKey, now: now)
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
        try guessing.spendSource(context.sourceKey, now: clock.nowMilliseconds())
        let accept = try RequestBody.decode(try await RequestBody.object(request), AcceptRoomRequest.init(json:))
        try limit(acceptsPerCode, "code:" + accept.joinCode.text)
        let now = clock.nowMilliseconds()
        try guessing.spendNode(now: now)
        let roomExpiry = now + Int64(limits.roomLifetimeSeconds) * 1_000
        let outcome = try await stored { () async throws(RendezvousStoreError) in
            try await store.accept(
                joinCode: accept.joinCode, client2: accept.client2, presence: accept.presence, proposedRoom: .random(), roomExpiresAt: roomExpiry, now: now)
        }
        if case .accepted = outcome { guessing.settle(right: true, now: now) } else { guessing.settle(right: false, now: now) }
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
        try guessing.spendSource(context.sourceKey, now: clock.nowMilliseconds())
        let check = try RequestBody.decode(try await RequestBody.object(request), CheckRoomRequest.init(json:))
        let now = clock.nowMilliseconds()
        try guessing.spendNode(now: now)
        let outcome = try await stored { () async throws(RendezvousStoreError) in try await store.check(joinCode: check.joinCode, client1: check.client1, now: now) }
        guessing.settle(right: outcome != .notFoundOrExpired, now: now)
        switch outcome {
        case .pending: return RESTResponse.empty(.noContent)
        case .accepted(let room): return RESTResponse.json(.ok, RoomIDBody(roomID: room).json)
        case .notFoundOrExpired: throw RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFoundOrExpired))
        }
    }

    /// `GET /api/rooms?roomid=[&deviceId=]` → `200 {roomid[, client1, client2]}` | `400 missing_roomid` | `404 not_found` | `429`.
    ///
    /// The room id alone says whether the room lives (Inviso's clients ask only that); the device ids, secrets of the
    /// two paired devices that let one rejoin as a member, come back only to a caller naming one of them in
    /// `deviceId` (compared in constant time).
    func getRoom(_ request: Request, _ context: RendezvousRequestContext) async throws(RESTRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        guard let text = request.uri.queryParameters.get("roomid"), !text.isEmpty else {
            throw RESTRejection(rejecting: .missingField("roomid"))
        }
        let notFound = RESTRejection(.notFound, RendezvousErrorBody(error: RendezvousErrorCode.notFound))
        guard let room = RoomID(text) else { throw notFound }
        let now = clock.nowMilliseconds()
        guard let info = try await stored({ () async throws(RendezvousStoreError) in try await store.room(room, now: now) }) else { throw notFound }
        let device = request.uri.queryParameters.get("deviceId") ?? ""
        // Both comparisons always run, so the time does not tell which member matched.
        let isClient1 = SecretComparison.equal(info.client1.text, device)
        let isClient2 = SecretComparison.equal(info.client2.text, device)
        guard isClient1 || isClient2 else { return RESTResponse.json(.ok, ["roomid": .string(info.roomID.text)]) }
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
    /// open relay; the username names neither the room nor the device (``TURNConfiguration/opaqueID(room:device:)``).
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
        return RESTResponse.json(.ok, turn.credentials(room: room.text, device: device.text, nowSeconds: now / 1_000).json)
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
