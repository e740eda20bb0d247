import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithRendezvous
import KithTerminal
import Synchronization

/// `kith recovery request|release` through a join-code relay (docs/CONTINUITY.md section 6): the rooms come from
/// `PairRun` (as `kith pair` and `kith chat` use them), the exchange is `RecoveryRelay`. Nothing of a join code,
/// request or release goes to a log; the room is deleted from the server at the end of each turn.
enum RecoveryRelayRun {
    /// The guardian's side: joins the room of `joinCode`, receives the request, runs the safety-code check and only on
    /// a match sends the release of the share held for `owner`.
    static func release(
        account: Account, owner: FeedID, name: String, joinCode: JoinCode, pairing: RelayPairing, wait: Duration, heard: String?, json: Bool
    ) async throws {
        let (room, device) = try await PairRun.accept(joinCode, on: pairing)
        let refusal = Mutex<(any Error)?>(nil)
        let answer: RecoveryRelayAnswer = try await PairRun.cleaningUp(pairing, device: device) {
            try await relayed {
                try await RelayConnection.open(signalingURL: pairing.signalingURL, room: room, device: device, timeouts: timeouts(wait)) { transport, role in
                    try await exchange { () async throws(RecoveryRelayError) in
                        try await RecoveryRelay.answer(over: transport, role: role) { request in
                            do {
                                try await RecoverySafetyCheck.confirm(request, name: name, heard: heard)
                                return try await account.recovery.release(for: owner, request: request)
                            } catch {
                                refusal.withLock { $0 = error }
                                return nil
                            }
                        }
                    }
                }
            }
        }
        if let error = refusal.withLock({ $0 }) {
            Output.error("kith: nothing was sent through the relay")
            throw error
        }
        if json {
            var object = JSONObject()
            object["released"] = .bool(true)
            object["kept"] = .bool(answer == .kept)
            Output.json(.object(object))
        } else if answer == .kept {
            Output.line("Released your share of \(name) through the relay; their device kept it.")
        } else {
            Output.line("Released your share of \(name) through the relay, but their device refused it.")
        }
        if answer != .kept { throw PairRun.Failure(description: "the new device refused the release (it answers another request, or was altered on the way)") }
    }

    /// The relay waits: the other side joining, and each answer (a guardian may take a while to compare the codes).
    static func timeouts(_ wait: Duration) -> RelayTimeouts { RelayTimeouts(peer: wait, idle: wait) }

    /// Runs a relay connection; its failures become one sentence for the terminal.
    static func relayed<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as RelayError {
            throw PairRun.Failure(description: PairRun.message(for: error))
        }
    }

    /// Runs the exchange; its failures become one sentence for the terminal.
    static func exchange<Value>(_ body: () async throws(RecoveryRelayError) -> Value) async throws -> Value {
        do throws(RecoveryRelayError) {
            return try await body()
        } catch {
            throw PairRun.Failure(description: error.description)
        }
    }
}
