import AsyncHTTPClient
import KithCanonical
import NIOCore
import NIOHTTP1

/// The REST side of the rendezvous protocol, for apps and `kith`: pair two devices by join code.
///
/// client1 calls ``createRoom(_:)`` and polls ``check(_:)``; client2 calls ``accept(_:)``; both
/// then join the room over signaling (``SignalingClient``). Requests and answers go through the
/// same bounded codec as the server's.
public struct RendezvousClient: Sendable {
    /// The server, such as `http://127.0.0.1:7460` (no trailing slash needed).
    public let baseURL: String
    /// How long one request may take.
    public var timeout: TimeAmount
    private let httpClient: HTTPClient

    /// Largest answer body read.
    static let maximumResponseBytes = RendezvousLimits.maximumRequestBodyBytes

    /// A client of the server at `baseURL`, using `httpClient` (the process-wide shared client
    /// by default).
    public init(baseURL: String, httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(10)) throws(RendezvousClientError) {
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else { throw .invalidURL(baseURL) }
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.httpClient = httpClient
        self.timeout = timeout
    }

    /// client1: offers a pairing under a join code. Answers when it expires (server clock).
    ///
    /// - Throws: ``RendezvousClientError/conflict(_:)`` when a live pairing already uses the code.
    public func createRoom(_ request: CreateRoomRequest) async throws(RendezvousClientError) -> CreateRoomResponse {
        let answer = try await send(.POST, "/api/rooms", body: request.json)
        guard answer.status == 201 else { throw answer.failure() }
        return try answer.decode(CreateRoomResponse.init(json:))
    }

    /// client2: accepts the pairing of a join code and learns the room id.
    ///
    /// - Throws: ``RendezvousClientError/notFoundOrExpired`` for an unknown or expired code,
    ///   ``RendezvousClientError/conflict(_:)`` when another device accepted it first.
    public func accept(_ request: AcceptRoomRequest) async throws(RendezvousClientError) -> RoomID {
        let answer = try await send(.POST, "/api/rooms/accept", body: request.json)
        guard answer.status == 200 else { throw answer.failure() }
        return try answer.decode(RoomIDBody.init(json:)).roomID
    }

    /// client1: asks whether the pairing was accepted.
    public func check(_ request: CheckRoomRequest) async throws(RendezvousClientError) -> PairingStatus {
        let answer = try await send(.POST, "/api/rooms/check", body: request.json)
        switch answer.status {
        case 204: return .pending
        case 200: return .accepted(try answer.decode(RoomIDBody.init(json:)).roomID)
        default: throw answer.failure()
        }
    }

    /// Describes a live room to one of its two devices (`device` proves membership: the server names the devices only
    /// to a member); nil when the room does not exist or expired.
    public func room(_ roomID: RoomID, asMember device: DeviceID) async throws(RendezvousClientError) -> RoomInfo? {
        let query = Self.percentEncoded(roomID.text) + "&deviceId=" + Self.percentEncoded(device.text)
        let answer = try await send(.GET, "/api/rooms?roomid=\(query)", body: nil)
        switch answer.status {
        case 200: return try answer.decode(RoomInfo.init(json:))
        case 404: return nil
        default: throw answer.failure()
        }
    }

    /// Whether a room lives (what the room id alone may ask).
    public func roomExists(_ roomID: RoomID) async throws(RendezvousClientError) -> Bool {
        let answer = try await send(.GET, "/api/rooms?roomid=\(Self.percentEncoded(roomID.text))", body: nil)
        switch answer.status {
        case 200: return true
        case 404: return false
        default: throw answer.failure()
        }
    }

    /// Deletes a room (idempotent).
    public func deleteRoom(_ roomID: RoomID) async throws(RendezvousClientError) {
        let answer = try await send(.DELETE, "/api/rooms", body: RoomIDBody(roomID: roomID).json)
        guard answer.status == 200 else { throw answer.failure() }
    }

    /// Forgets every pairing and room of these ephemeral device ids.
    public func purge(_ request: PurgeRequest) async throws(RendezvousClientError) -> PurgeResponse {
        let answer = try await send(.POST, "/api/user/purge", body: request.json)
        guard answer.status == 200 else { throw answer.failure() }
        return try answer.decode(PurgeResponse.init(json:))
    }

    // MARK: Transport

    private func send(_ method: HTTPMethod, _ path: String, body: JSONObject?) async throws(RendezvousClientError) -> RendezvousAnswer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(RendezvousJSON.bytes(body))
        }
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: Self.maximumResponseBytes)
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int($0) }
            return RendezvousAnswer(status: Int(response.status.code), body: Array(bytes.readableBytesView), retryAfter: retryAfter)
        } catch {
            throw .transport(String(describing: error))
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + IdentifierAlphabet.hex([byte]).uppercased()
            }
        }
        return output
    }
}
