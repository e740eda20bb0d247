import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

/// `kith pair create|join`: pair with a contact by join code on a rendezvous server and sync
/// through its blind relay (docs/SERVER.md, section 3.1).
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Sync with a contact on another network: pair by join code through a `kith serve` relay.",
        discussion: "One side runs `kith pair create` and reads out (or shows as a QR code) the join code; the other runs `kith pair join CODE`. Both then sync through the server's relay over the same Noise-encrypted link as `kith sync`: the server sees only ciphertext, and only contacts are accepted.",
        subcommands: [Create.self, Join.self]
    )

    /// The server and the waits, shared by both subcommands.
    struct ServerOptions: ParsableArguments {
        @Option(name: .customLong("server"), help: "The rendezvous server (default: $KITH_SERVER, else http://127.0.0.1:7460).")
        var server: String?

        @Option(help: "Seconds to wait for the other device (pairing and joining).")
        var timeout: Int = 300

        @Option(name: .customLong("one-time"), help: "Also send TEXT over the relay as a one-time message (inner-circle contacts only): opened once, never stored.")
        var oneTime: String?

        /// The server URL: the flag, else `KITH_SERVER`, else the default of `kith serve`.
        var url: String { server ?? ProcessInfo.processInfo.environment["KITH_SERVER"] ?? "http://127.0.0.1:7460" }

        func validated() throws -> (RelayPairing, Duration) {
            guard (1...86_400).contains(timeout) else { throw KithError.input(.invalid("--timeout must be between 1 and 86400 seconds")) }
            do throws(RelayError) {
                return (try RelayPairing(serverURL: url), .seconds(timeout))
            } catch {
                throw KithError.input(.invalid(error.description))
            }
        }
    }

    /// `kith pair create [--server URL] [--timeout S] [--no-qr]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a join code (printed with its QR code), wait for the contact to join, then sync."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SyncCommand.SessionOptions
        @OptionGroup var server: ServerOptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the join code as a QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                let (pairing, wait) = try server.validated()
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let (code, device, expires) = try await PairRun.offer(pairing, expiresInSeconds: server.timeout)
                if global.json {
                    var object = JSONObject()
                    object["join_code"] = .string(code.text)
                    object["expires"] = .string(expires.expiresAt.iso8601)
                    Output.json(.object(object))
                } else {
                    if !noQR { Output.line(try QRCode.render(code.text)) }
                    Output.line("Join code: \(code.text)")
                    Output.line("On the other device: kith pair join \(code.text)" + (server.server.map { " --server \($0)" } ?? ""))
                }
                Output.error("kith: waiting for the other device (up to \(server.timeout) s)…")
                let room = try await PairRun.step { () async throws(RelayError) in
                    try await pairing.waitForAcceptance(code, device: device, timeout: wait)
                }
                try await PairRun.sync(pairing: pairing, room: room, device: device, agent: agent, wait: wait, json: global.json, oneTime: server.oneTime)
            }
        }
    }

    /// `kith pair join CODE [--server URL] [--timeout S]`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a contact's join code, then sync through the relay.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SyncCommand.SessionOptions
        @OptionGroup var server: ServerOptions

        @Argument(help: "The join code the other device printed.")
        var code: String

        func run() async throws {
            try await Output.run {
                let joinCode = try PairRun.joinCode(code)
                let (pairing, wait) = try server.validated()
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let (room, device) = try await PairRun.accept(joinCode, on: pairing)
                try await PairRun.sync(pairing: pairing, room: room, device: device, agent: agent, wait: wait, json: global.json, oneTime: server.oneTime)
            }
        }
    }
}

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
    /// first, as `kith sync` does, so they travel in this session).
    static func sync(
        pairing: RelayPairing, room: RoomID, device: DeviceID, agent: SyncAgent, wait: Duration, json: Bool, oneTime: String? = nil
    ) async throws {
        await PushAutoRefill.run(agent.account)
        let report: SyncSessionReport
        do {
            report = try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: wait),
                nanoTDF: RelayedOneTimeOutput.receiver(agent.account, json: json)
            ) { transport, role in
                let link: SecureLink
                do throws(SecureLinkError) {
                    link = role == .initiator ? try await agent.initiate(over: transport) : try await agent.accept(over: transport)
                } catch .peerNotAllowed {
                    throw Failure(description: "the other device is not one of your contacts or a member of a group you share (or does not have you as one); meet first: `kith card --qr`, `kith contact add`")
                } catch {
                    throw KithError.sync(.link(error))
                }
                if let oneTime { await sendOneTime(oneTime, over: transport, to: link.peerStaticKey, account: agent.account) }
                return await SyncRun.session(link: link, agent: agent, json: json)
            }
        } catch let error as RelayError {
            throw Failure(description: message(for: error))
        }
        if !report.completed { throw ExitCode(1) }
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

/// What `kith pair` shows of the one-time messages the peer sends on the relay as bare NanoTDFs
/// (the relay router's output, opened once with the inner-circle pool key they name).
enum RelayedOneTimeOutput {
    static func receiver(_ account: Account, json: Bool) -> any NanoTDFReceiver {
        account.circle.relayedReceiver { outcome in
            switch outcome {
            case .success(let message):
                let name = (try? await account.contacts.record(message.contact))?.shownName ?? message.contact.string
                if json {
                    var object = JSONObject()
                    object["relayed_one_time"] = .object(["contact": .string(message.contact.string), "name": .string(name), "text": .string(message.post.body)])
                    Output.json(.object(object))
                } else {
                    Output.line("«\(TerminalText.escaped(name))» (one-time, over the relay): \(TerminalText.escaped(message.post.body))")
                }
            case .failure(let error):
                Output.error("kith: a one-time message on the relay was refused: \(TerminalText.escaped(error.description))")
            }
        }
    }
}
