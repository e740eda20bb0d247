import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal

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
