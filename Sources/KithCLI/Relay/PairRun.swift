import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal
import Synchronization

/// The steps `kith pair` shares: errors worded for the terminal, the relay, the session.
enum PairRun {
    /// Why a pairing step failed, worded for the command line.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs one rendezvous step; a failure becomes one actionable sentence.
    static func step<Value>(_ body: () async throws(RelayError) -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            throw Failure(description: message(for: error))
        }
    }

    /// The server URL: `server` (a `--server` flag), else `KITH_SERVER`, else the default of `kith serve`.
    static func serverURL(_ server: String?) -> String {
        server ?? ProcessInfo.processInfo.environment["KITH_SERVER"] ?? "http://127.0.0.1:7460"
    }

    /// The pairing client for `server` (see ``serverURL(_:)``) and the wait of a `--timeout` in seconds (1…86400).
    static func pairing(server: String?, timeout: Int) throws -> (RelayPairing, Duration) {
        guard (1...86_400).contains(timeout) else { throw KithError.input(.invalid("--timeout must be between 1 and 86400 seconds")) }
        do throws(RelayError) {
            return (try RelayPairing(serverURL: serverURL(server)), .seconds(timeout))
        } catch {
            throw KithError.input(.invalid(error.description))
        }
    }

    /// A join code typed by the user.
    static func joinCode(_ text: String) throws -> JoinCode {
        guard let code = JoinCode(text) else { throw KithError.input(.invalid("a join code is 6 to 64 letters, digits, '-' or '_'")) }
        return code
    }

    /// Offers a fresh 8-digit code from a fresh device id; returns them with the server's expiry.
    static func offer(_ pairing: RelayPairing, expiresInSeconds: Int) async throws -> (JoinCode, DeviceID, CreateRoomResponse) {
        let code = JoinCode.randomDigits(count: 8)
        let device = DeviceID.random()
        let expires = try await step { () async throws(RelayError) in
            try await pairing.offer(code, device: device, expiresInSeconds: expiresInSeconds)
        }
        return (code, device, expires)
    }

    /// Accepts `code` from a fresh device id; returns the room and that device.
    static func accept(_ code: JoinCode, on pairing: RelayPairing) async throws -> (RoomID, DeviceID) {
        let device = DeviceID.random()
        let room = try await step { () async throws(RelayError) in try await pairing.accept(code, device: device) }
        return (room, device)
    }

    static func message(for error: RelayError) -> String {
        switch error {
        case .rendezvous(.transport):
            "cannot reach the rendezvous server; check --server (or KITH_SERVER) and that `kith serve` runs there"
        case .rendezvous(.notFoundOrExpired):
            "unknown or expired join code; ask the other device for a new one"
        case .rendezvous(.conflict):
            "this join code was already used by another device; ask for a new one"
        default:
            error.description
        }
    }

    /// Opens the relay of `room`, runs the secure link (initiator: the first device in the room)
    /// and one sync session with the same progress display as `kith sync` (push tokens are topped up
    /// first, as `kith sync` does, so they travel in this session). A drop mid-session (this device's socket or the
    /// peer's) reconnects with backoff and starts the session over (sync is idempotent); the summary is printed once,
    /// for the last session. The one-time message goes out once.
    static func sync(
        pairing: RelayPairing, room: RoomID, device: DeviceID, agent: SyncAgent, wait: Duration, json: Bool, oneTime: String? = nil
    ) async throws {
        await PushAutoRefill.run(agent.account)
        let oneTimeSent = Mutex(false)
        let attempt: SyncAttempt
        do {
            attempt = try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: wait),
                nanoTDF: RelayedOneTimeOutput.receiver(agent.account, json: json),
                reconnect: .standard, events: { report($0, peer: "the other device") }, restartWhen: { !$0.report.completed }
            ) { transport, role in
                let link: SecureLink
                do throws(SecureLinkError) {
                    link = role == .initiator ? try await agent.initiate(over: transport) : try await agent.accept(over: transport)
                } catch .peerNotAllowed {
                    throw Failure(description: "the other device is not one of your contacts or a member of a group you share (or does not have you as one); meet first: `kith card --qr`, `kith contact add`")
                } catch {
                    throw KithError.sync(.link(error))
                }
                if let oneTime, oneTimeSent.withLock({ sent in defer { sent = true }; return !sent }) {
                    await sendOneTime(oneTime, over: transport, to: link.peerStaticKey, account: agent.account)
                }
                let progress = SyncProgress(draws: !json)
                let report = await agent.run(link: link, observer: progress.observer)
                // Named after the run: its card phase may have completed a scanned compact card into a contact.
                let peerName = await agent.source.peerName(staticKey: link.peerStaticKey) ?? "contact"
                return SyncAttempt(progress: progress, report: report, peerName: peerName)
            }
        } catch let error as RelayError {
            throw Failure(description: message(for: error))
        }
        attempt.progress.printSummary(peer: attempt.peerName, report: attempt.report, json: json)
        if !attempt.report.completed { throw ExitCode(1) }
    }

    /// One sync session over the relay: its progress display, report and the peer's name.
    struct SyncAttempt: Sendable {
        let progress: SyncProgress
        let report: SyncSessionReport
        let peerName: String
    }

    /// One progress line on standard error for a relay event (`peer` names the other side).
    static func report(_ event: RelayEvent, peer: String) {
        switch event {
        case .connectionLost: Output.error("kith: connection lost, reconnecting…")
        case .reconnecting(let attempt, let delay):
            Output.error("kith: connection lost, reconnecting (attempt \(attempt), in \(seconds(delay)) s)…")
        case .reconnected: Output.error("kith: reconnected")
        case .peerConnectionLost: Output.error("kith: \(peer)'s connection dropped; waiting for it to come back…")
        case .resumed: Output.error("kith: relay resumed")
        case .roomDeleted: break
        case .roomNotDeleted(let reason): Output.error("kith: warning: the room could not be deleted from the server (\(reason)); it expires by itself")
        }
    }

    /// A duration as seconds with one decimal.
    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return String(format: "%.1f", Double(whole) + Double(fraction) / 1e18)
    }

    /// Runs `body`, then forgets this device's pairing and room on the server, whatever the outcome: a failed
    /// deletion is a warning, never the command's failure.
    /// Ctrl-C (SIGINT) while `body` runs purges too, then exits with status 130; a second Ctrl-C exits at once.
    static func cleaningUp<Value>(_ pairing: RelayPairing, device: DeviceID, _ body: () async throws -> Value) async throws -> Value {
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signal(SIGINT, SIG_IGN)
        interrupt.setEventHandler {
            signal(SIGINT, SIG_DFL)
            Output.error("kith: interrupted; deleting the room from the server (Ctrl-C again to quit now)…")
            Task {
                try? await pairing.cleanUp(device: device)
                exit(130)
            }
        }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        let result: Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        do throws(RelayError) {
            try await pairing.cleanUp(device: device)
            report(.roomDeleted, peer: "")
        } catch {
            report(.roomNotDeleted(message(for: error)), peer: "")
        }
        return try result.get()
    }
}

extension PairRun {
    /// Sends `text` to the contact at the other end of the link as a NanoTDF on the relay, under the next key of
    /// their pool; a failure (not in the inner circle, pool exhausted) is reported and the sync goes on.
    static func sendOneTime(_ text: String, over transport: RelayTransport, to peerStaticKey: [UInt8], account: Account) async {
        guard let contact = await account.makeSyncSource().contact(staticKey: peerStaticKey) else { return }
        do {
            let nano = try await account.circle.sealForRelay(text, to: contact.feedID)
            try await transport.sendNanoTDF(nano)
            Output.error("kith: sent a one-time message to \(TerminalText.escaped(contact.shownName)) over the relay")
        } catch {
            Output.error("kith: one-time message not sent: \(TerminalText.escaped(String(describing: error)))")
        }
    }
}
