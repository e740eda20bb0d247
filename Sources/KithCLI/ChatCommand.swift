import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal

/// `kith chat create|join`: a live two-person chat through a `kith serve` relay, end-to-end
/// encrypted (Noise XX), nothing stored unless both are contacts and `--keep` is given
/// (docs/SERVER.md, section 3.2).
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat live with someone through a `kith serve` relay (end-to-end encrypted, nothing stored by default).",
        discussion: "One side runs `kith chat create` and gives the join code; the other runs `kith chat join CODE`. Type lines and press Enter; end with Ctrl-D. Both screens show an 8-digit code: compare it (in person or by phone) to be sure nobody is in the middle. By default each side uses a fresh key, so the chat is anonymous and nothing is written to disk. With --keep on both sides, two contacts chat under their identities and each keeps the lines it sent as direct messages (they reach the other at the next sync).",
        subcommands: [Create.self, Join.self]
    )

    /// Options both subcommands share.
    struct ChatOptions: ParsableArguments {
        @Flag(help: "Chat under your identity and keep your lines as direct messages (only with a contact who also uses --keep).")
        var keep = false
    }

    /// `kith chat create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a join code and wait for the other person.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var server: PairCommand.ServerOptions
        @OptionGroup var options: ChatOptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the join code as a QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                let (pairing, wait) = try server.validated()
                let account = options.keep ? try await openAccount(global) : nil
                let (code, device, _) = try await PairRun.offer(pairing, expiresInSeconds: server.timeout)
                if !noQR { Output.line(try QRCode.render(code.text)) }
                Output.line("Join code: \(code.text)")
                Output.line("The other person runs: kith chat join \(code.text)" + (server.server.map { " --server \($0)" } ?? ""))
                let room = try await PairRun.step { () async throws(RelayError) in
                    try await pairing.waitForAcceptance(code, device: device, timeout: wait)
                }
                try await ChatRun.run(pairing: pairing, room: room, device: device, wait: wait, account: account)
            }
        }
    }

    /// `kith chat join CODE`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join someone's chat by its join code.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var server: PairCommand.ServerOptions
        @OptionGroup var options: ChatOptions

        @Argument(help: "The join code the other person gave.")
        var code: String

        func run() async throws {
            try await Output.run {
                let joinCode = try PairRun.joinCode(code)
                let (pairing, wait) = try server.validated()
                let account = options.keep ? try await openAccount(global) : nil
                let (room, device) = try await PairRun.accept(joinCode, on: pairing)
                try await ChatRun.run(pairing: pairing, room: room, device: device, wait: wait, account: account)
            }
        }
    }
}

/// The chat session of `kith chat`: handshake, the short authentication string, then lines both ways.
enum ChatRun {
    static func run(pairing: RelayPairing, room: RoomID, device: DeviceID, wait: Duration, account: Account?) async throws {
        let key = account?.identity.dhKey ?? Curve25519.KeyAgreement.PrivateKey()
        do {
            try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: wait, idle: .seconds(86_400))
            ) { transport, role in
                let chat: RelayChat
                do throws(ChatError) {
                    chat = try await RelayChat.establish(over: transport, role: role, localStatic: key)
                } catch {
                    throw PairRun.Failure(description: error.description)
                }
                var contact: ContactRecord?
                if let account { contact = await account.makeSyncSource().contact(staticKey: chat.peerStaticKey) }
                let name = contact.map { TerminalText.escaped($0.shownName) } ?? "them"
                Output.error("kith: connected, end-to-end encrypted. Compare this code with the other person: \(chat.authenticationString)")
                if let contact {
                    Output.error("kith: \(TerminalText.escaped(contact.shownName)) is your contact; your lines are kept as direct messages")
                } else if account != nil {
                    Output.error("kith: the other person is not one of your contacts (or did not use --keep): nothing is stored")
                } else {
                    Output.error("kith: anonymous chat: fresh keys, nothing is stored. Type lines and press Enter; Ctrl-D ends.")
                }
                try await converse(chat, name: name, keepAs: contact.flatMap { record in account.map { ($0, record.feedID) } })
            }
        } catch let error as RelayError {
            throw PairRun.Failure(description: PairRun.message(for: error))
        }
    }

    /// Lines from standard input go out; lines from the other side are printed escaped. Ends at
    /// end of input (telling the other side), when the other side leaves, or on an error.
    private static func converse(_ chat: RelayChat, name: String, keepAs keep: (Account, FeedID)?) async throws {
        let lines = StandardInputLines.stream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    let message: ChatMessage
                    do throws(ChatError) {
                        message = try await chat.receive()
                    } catch {
                        Output.error("kith: \(error.description)")
                        return
                    }
                    switch message {
                    case .line(let text): Output.line("\(name)> \(TerminalText.escaped(text))")
                    case .bye:
                        Output.error("kith: \(name) ended the chat")
                        return
                    }
                }
            }
            group.addTask {
                for await line in lines {
                    do throws(ChatError) {
                        try await chat.send(line)
                    } catch .lineTooLong(let bytes) {
                        Output.error("kith: not sent: \(ChatError.lineTooLong(bytes).description)")
                        continue
                    } catch {
                        Output.error("kith: \(error.description)")
                        return
                    }
                    if let (account, contact) = keep {
                        do {
                            _ = try await account.direct.send(line, to: contact)
                        } catch {
                            Output.error("kith: the line was sent but could not be kept: \(TerminalText.escaped("\(error)"))")
                        }
                    }
                }
                await chat.sayBye()
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Standard input as lines, read on a thread of its own (reading blocks).
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(64))
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
