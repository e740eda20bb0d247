import Foundation
import Kith
import KithContinuity
import KithRendezvous
import KithSync

/// `kith move receive --server URL` and `kith move send` of a relay code (docs/CONTINUITY.md, section 7, "Through a
/// relay"): the room comes from `PairRun` (as `kith pair` uses it), the move runs over its `RelayTransport` with the
/// same code-pinned Noise IK, proof and stream as over TCP, so the server sees the join code, the Noise handshake and
/// ciphertext only. The room is deleted at the end (success, failure, Ctrl-C); nothing of a code goes to a log.
enum MoveRelayRun {
    /// The relay waits: the other device joining (the receiver's `--timeout`), and each frame (as the TCP link's idle
    /// timeout: the receiver restores and publishes within it).
    static func timeouts(peer: Duration) -> RelayTimeouts {
        RelayTimeouts(peer: peer, idle: .seconds(MoveLimits.idleTimeoutSeconds))
    }

    /// The new device's side: offers a fresh join code, shows the move code through `show`, waits for the old device
    /// to join and runs `receive` over the relay.
    static func receive<Value: Sendable>(
        home: AccountHome, server: String?, timeout: Int, show: (MoveCode) throws -> Void,
        receive: @escaping @Sendable (MoveReceiver, any SyncTransport) async throws -> Value
    ) async throws -> Value {
        let (pairing, wait) = try PairRun.pairing(server: server, timeout: timeout)
        try MoveReceiver.requireEmptyHome(home)
        let (joinCode, device, _) = try await PairRun.offer(pairing, expiresInSeconds: timeout)
        return try await PairRun.cleaningUp(pairing, device: device) {
            // A URL the code cannot carry (over 200 bytes, unusual characters) is left out: the old device then names it.
            let named = MoveCode.canCarry(serverURL: pairing.client.baseURL) ? pairing.client.baseURL : nil
            let receiver = try MoveReceiver.relayed(home: home, joinCode: joinCode.text, server: named)
            try show(receiver.code)
            Output.error("kith: waiting for the old device (up to \(timeout) s)…")
            let room = try await PairRun.step { () async throws(RelayError) in
                try await pairing.waitForAcceptance(joinCode, device: device, timeout: wait)
            }
            return try await RecoveryRelayRun.relayed {
                try await RelayConnection.open(
                    signalingURL: pairing.signalingURL, room: room, device: device, timeouts: timeouts(peer: wait)
                ) { transport, _ in try await receive(receiver, transport) }
            }
        }
    }

    /// The old device's side: joins the room of the code's join code and runs `send` over the relay.
    static func send<Value: Sendable>(
        joinCode text: String, server: String?, timeout: Int, send: @escaping @Sendable (any SyncTransport) async throws -> Value
    ) async throws -> Value {
        let joinCode = try PairRun.joinCode(text)
        let (pairing, wait) = try PairRun.pairing(server: server, timeout: timeout)
        let (room, device) = try await PairRun.accept(joinCode, on: pairing)
        return try await PairRun.cleaningUp(pairing, device: device) {
            try await RecoveryRelayRun.relayed {
                try await RelayConnection.open(
                    signalingURL: pairing.signalingURL, room: room, device: device, timeouts: timeouts(peer: wait)
                ) { transport, _ in try await send(transport) }
            }
        }
    }
}
