import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithRendezvous
import KithTerminal
import Synchronization

extension RecoveryRelayRun {
    /// The new device's side: one room per guardian, in turn, until the releases kept rebuild the identity or
    /// `guardians` codes were offered. Each release is checked against the pending request as it arrives (one that
    /// does not open, is replayed or belongs to another set is refused and the guardian told). At the end the identity
    /// is rebuilt into `into`, or the releases are printed for `kith recovery combine`.
    static func collect(
        account: Account, owner: FeedID, request: RecoveryRequest, pairing: RelayPairing, wait: Duration,
        guardians: Int, server: String, into: String?, json: Bool
    ) async throws {
        if !json {
            Output.line("Recovery of \(owner.string) through the relay at \(server).")
            Output.line("Safety code: \(request.safetyCode) (read it to each guardian; their screen must show the same)")
        }
        var kept: [RecoveryRelease] = []
        var missing = RecoveryLimits.minThreshold
        for turn in 1...guardians where missing > 0 {
            let (code, device, _) = try await PairRun.offer(pairing, expiresInSeconds: Int(wait.components.seconds))
            if json {
                var object = JSONObject()
                object["guardian"] = .integer(Int64(turn))
                object["join_code"] = .string(code.text)
                object["safety_code"] = .string(request.safetyCode)
                Output.json(.object(object))
            } else {
                Output.line("Join code for guardian \(turn): \(code.text)")
                Output.line("  They run: kith recovery release \(owner.string) --join \(code.text) --server \(server)")
            }
            do {
                let (outcome, progress, refusal) = try await PairRun.cleaningUp(pairing, device: device) {
                    try await turnThroughRelay(account: account, request: request, kept: kept, code: code, device: device, pairing: pairing, wait: wait)
                }
                switch outcome {
                case .kept(let release):
                    kept.append(release)
                    if let progress { missing = progress.missing }
                    Output.error("kith: \(kept.count) of \(kept.count + missing) releases")
                case .refused:
                    Output.error("kith: refused this guardian's release: \(refusal.map { TerminalText.escaped(String(describing: $0)) } ?? "it does not open")")
                case .declined:
                    Output.error("kith: the guardian sent nothing (the safety codes differed, or they hold no share for you)")
                }
            } catch {
                Output.error("kith: guardian \(turn): \(TerminalText.escaped(String(describing: error)))")
            }
        }
        try await finish(account: account, kept: kept, missing: missing, into: into, json: json)
    }

    /// One guardian's turn: waits for the guardian to join, then runs the exchange; returns the outcome, the
    /// progress after a kept release and why a release was refused.
    private static func turnThroughRelay(
        account: Account, request: RecoveryRequest, kept: [RecoveryRelease], code: JoinCode, device: DeviceID, pairing: RelayPairing, wait: Duration
    ) async throws -> (RecoveryRelayOutcome, RecoveryProgress?, (any Error)?) {
        Output.error("kith: waiting for the guardian to join (up to \(wait.components.seconds) s)…")
        let room = try await PairRun.step { () async throws(RelayError) in try await pairing.waitForAcceptance(code, device: device, timeout: wait) }
        let checked = Mutex<(RecoveryProgress?, (any Error)?)>((nil, nil))
        let outcome = try await relayed {
            try await RelayConnection.open(signalingURL: pairing.signalingURL, room: room, device: device, timeouts: timeouts(wait)) { transport, role in
                try await exchange { () async throws(RecoveryRelayError) in
                    try await RecoveryRelay.ask(over: transport, role: role, request: request) { release in
                        do {
                            let progress = try await account.recovery.progress(of: kept + [release])
                            checked.withLock { $0 = (progress, nil) }
                            return true
                        } catch {
                            checked.withLock { $0 = (nil, error) }
                            return false
                        }
                    }
                }
            }
        }
        let (progress, refusal) = checked.withLock { $0 }
        return (outcome, progress, refusal)
    }

    /// Rebuilds into `into` when enough releases are in; else (or without `into`) prints the releases kept, for
    /// `kith recovery combine`.
    private static func finish(account: Account, kept: [RecoveryRelease], missing: Int, into: String?, json: Bool) async throws {
        if missing == 0, let into {
            let recovered = try await account.recovery.rebuild(from: kept)
            // No backup here: the home holds the identity, and the sync that brings the feed back publishes the
            // device_migration rotation (as `kith recovery combine --into` without --backup).
            let move = try await Account.Recovery.move(
                recovered, into: AccountHome(directory: URL(fileURLWithPath: into)), backup: nil, backupSecret: nil, rotate: true,
                passphrase: { () throws(IdentityError) -> String in
                    try PassphraseSource.obtain(prompt: "New passphrase for the rebuilt identity: ", confirm: true)
                })
            if json {
                var object = JSONObject()
                object["feed_id"] = .string(recovered.identity.feedID.string)
                object["rotated"] = .bool(recovered.keySeeds != nil)
                object["carried_backup_key"] = .bool(recovered.backupKey != nil)
                object["home"] = .string(into)
                object["awaiting_own_feed"] = .bool(move.account.isAwaitingHeadAfterRestore)
                Output.json(.object(object))
            } else {
                Output.line("Rebuilt the identity \(recovered.identity.feedID.string) into \(into). It holds only the identity: add your")
                Output.line("contacts' cards and sync with one of them (the sync that brings your feed back publishes the verified")
                Output.line("device_migration rotation), or rebuild with `kith recovery combine RELEASE... --into DIR --backup FILE`.")
            }
            return
        }
        if json {
            var object = JSONObject()
            object["releases"] = .array(kept.map { .string($0.text) })
            object["missing"] = .integer(Int64(missing))
            Output.json(.object(object))
        } else {
            if !kept.isEmpty { Output.line("Releases kept (for `kith recovery combine RELEASE... --into DIR`):") }
            for release in kept { Output.line(release.text) }
        }
        if missing > 0 {
            throw PairRun.Failure(description: "\(kept.count) release(s) kept, \(missing) more needed: ask more guardians (`kith recovery combine` takes these releases and more)")
        }
    }
}
