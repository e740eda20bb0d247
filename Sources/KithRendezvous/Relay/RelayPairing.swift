/// Pairs two devices by join code on a rendezvous server, for its relay: client1 offers a code
/// and waits for it to be accepted, client2 accepts it; both then open the room's relay with
/// ``RelayConnection/open(signalingURL:room:device:timeouts:nanoTDF:reconnect:events:restartWhen:logger:body:)``.
///
/// ```swift
/// let pairing = try RelayPairing(serverURL: "http://127.0.0.1:7460")
/// // device 1                                        // device 2
/// let device = DeviceID.random()                     let device = DeviceID.random()
/// try await pairing.offer(code, device: device)      let room = try await pairing.accept(code, device: device)
/// let room = try await pairing.waitForAcceptance(code, device: device, timeout: .seconds(120))
/// ```
public struct RelayPairing: Sendable {
    /// The REST client of the server.
    public let client: RendezvousClient
    /// The server's signaling WebSocket (`ws://` for `http://`, `wss://` for `https://`).
    public let signalingURL: String

    /// A pairing through the server at `serverURL` (such as `http://127.0.0.1:7460`).
    ///
    /// - Throws: ``RelayError/rendezvous(_:)`` with ``RendezvousClientError/invalidURL(_:)`` for
    ///   anything but an `http://` or `https://` URL.
    public init(serverURL: String) throws(RelayError) {
        do {
            client = try RendezvousClient(baseURL: serverURL)
        } catch {
            throw .rendezvous(error)
        }
        let base = client.baseURL
        signalingURL = (base.hasPrefix("https://") ? "wss://" + base.dropFirst(8) : "ws://" + base.dropFirst(7)) + "/"
    }

    /// client1: offers a pairing under `code` for `expiresInSeconds` (1...86400); a ``JoinCodeClaim`` code needs the
    /// `claim` of its secret.
    ///
    /// - Throws: ``RelayError/rendezvous(_:)``: unreachable server, code in use (409), claim missing or wrong (403),
    ///   rate limited.
    @discardableResult
    public func offer(_ code: JoinCode, device: DeviceID, expiresInSeconds: Int = 600, claim: String? = nil) async throws(RelayError) -> CreateRoomResponse {
        do {
            return try await client.createRoom(CreateRoomRequest(joinCode: code, client1: device, expiresInSeconds: expiresInSeconds, claim: claim))
        } catch {
            throw .rendezvous(error)
        }
    }

    /// client1: polls until client2 accepted `code`; answers the room.
    ///
    /// - Throws: ``RelayError/notAccepted`` when the code expired unaccepted or `timeout` passed.
    public func waitForAcceptance(_ code: JoinCode, device: DeviceID, pollInterval: Duration = .seconds(1), timeout: Duration) async throws(RelayError) -> RoomID {
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(RendezvousClientError) {
                if case .accepted(let room) = try await client.check(CheckRoomRequest(joinCode: code, client1: device)) { return room }
            } catch .notFoundOrExpired {
                throw .notAccepted
            } catch .rateLimited(let seconds) {
                if ContinuousClock.now + .seconds(seconds ?? 1) >= deadline { throw .notAccepted }
                try? await Task.sleep(for: .seconds(seconds ?? 1))
                continue
            } catch {
                throw .rendezvous(error)
            }
            guard ContinuousClock.now + pollInterval < deadline else { throw .notAccepted }
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                throw .notAccepted
            }
        }
    }

    /// client2: accepts `code`; answers the room.
    ///
    /// - Throws: ``RelayError/rendezvous(_:)`` with ``RendezvousClientError/notFoundOrExpired``
    ///   for an unknown or expired code, ``RendezvousClientError/conflict(_:)`` when another
    ///   device accepted it first.
    public func accept(_ code: JoinCode, device: DeviceID) async throws(RelayError) -> RoomID {
        do {
            return try await client.accept(AcceptRoomRequest(joinCode: code, client2: device))
        } catch {
            throw .rendezvous(error)
        }
    }

    /// Forgets on the server every pairing and room of `device` (`POST /api/user/purge`): what `kith pair` and
    /// `kith chat` do when their session is over, whatever its outcome. Call it only after the relay closed (after
    /// ``RelayConnection/open(signalingURL:room:device:timeouts:nanoTDF:reconnect:events:restartWhen:logger:body:)``
    /// returned): the session's `leave_room` and frames are then behind it, and a peer still in the room gets
    /// `peer_left` after them. Both devices call it; the second finds nothing left (zero counts), which is fine.
    ///
    /// - Throws: ``RelayError/rendezvous(_:)`` when the server cannot be reached or refuses; the server then forgets
    ///   the room when it expires.
    @discardableResult
    public func cleanUp(device: DeviceID) async throws(RelayError) -> PurgeResponse {
        do {
            return try await client.purge(PurgeRequest(deviceIDs: [device]))
        } catch {
            throw .rendezvous(error)
        }
    }
}
