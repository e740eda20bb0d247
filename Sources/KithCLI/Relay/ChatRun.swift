import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal
import Synchronization

/// The chat session of `kith chat`: handshake, the short authentication string, then lines both ways.
///
/// A dropped connection (this side's or the other's) reconnects with backoff and runs the handshake again; the chat
/// goes on only with the same person (same static key). Each side then says how many lines it received
/// (``ChatMessage/resume(receivedLines:)``) and the other reports the lines lost with the drop as not delivered (they
/// are not resent). Lines typed while the connection is down wait and go out after reconnecting.
enum ChatRun {
    /// How a chat (or one relay attempt of it) ended.
    enum Ending: Sendable, Equatable {
        /// Ctrl-D here (a bye was sent), the other person's bye, or a refused message.
        case ended
        /// The relay failed (dropped connection, or the other person left without a bye).
        case interrupted
    }

    static func run(pairing: RelayPairing, room: RoomID, device: DeviceID, wait: Duration, account: Account?) async throws {
        let key = account?.identity.dhKey ?? Curve25519.KeyAgreement.PrivateKey()
        let input = ChatInput.standardInput()
        let ledger = ChatLedger()
        let firstPeer = Mutex<[UInt8]?>(nil)
        let ending: Ending
        do {
            ending = try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: wait, idle: .seconds(86_400)),
                reconnect: .standard, events: { PairRun.report($0, peer: "the other person") }, restartWhen: { $0 == .interrupted }
            ) { transport, role in
                let chat: RelayChat
                do throws(ChatError) {
                    chat = try await RelayChat.establish(over: transport, role: role, localStatic: key)
                } catch {
                    throw PairRun.Failure(description: error.description)
                }
                let (known, resumed) = firstPeer.withLock { peer in
                    let resumed = peer != nil
                    if peer == nil { peer = chat.peerStaticKey }
                    return (peer, resumed)
                }
                guard known == chat.peerStaticKey else {
                    throw PairRun.Failure(description: "after reconnecting, the other side answered with a different key: it is not the same person; chat closed")
                }
                var contact: ContactRecord?
                if let account { contact = await account.makeSyncSource().contact(staticKey: chat.peerStaticKey) }
                let name = contact.map { TerminalText.escaped($0.shownName) } ?? "them"
                if resumed {
                    Output.error("kith: reconnected to the same person (same key); the chat goes on")
                } else {
                    greet(chat, contact: contact, keeping: account != nil)
                }
                let keep = contact.flatMap { record in account.map { ($0, record.feedID) } }
                return await converse(chat, name: name, keepAs: keep, input: input, ledger: ledger, resumed: resumed)
            }
        } catch let error as RelayError {
            throw PairRun.Failure(description: PairRun.message(for: error))
        }
        if ending == .interrupted { Output.error("kith: \(ChatError.transport(.closed).description)") }
    }

    private static func greet(_ chat: RelayChat, contact: ContactRecord?, keeping: Bool) {
        Output.error("kith: connected, end-to-end encrypted. Compare this code with the other person: \(chat.authenticationString)")
        if let contact {
            Output.error("kith: \(TerminalText.escaped(contact.shownName)) is your contact; your lines are kept as direct messages")
        } else if keeping {
            Output.error("kith: the other person is not one of your contacts (or did not use --keep): nothing is stored")
        } else {
            Output.error("kith: anonymous chat: fresh keys, nothing is stored. Type lines and press Enter; Ctrl-D ends.")
        }
    }

    /// Lines from standard input go out; lines from the other side are printed escaped. Ends at
    /// end of input (telling the other side), when the other side leaves, or on an error.
    private static func converse(
        _ chat: RelayChat, name: String, keepAs keep: (Account, FeedID)?, input: ChatInput, ledger: ChatLedger, resumed: Bool
    ) async -> Ending {
        await withTaskGroup(of: Ending.self) { group in
            group.addTask { await receive(chat, name: name, ledger: ledger) }
            group.addTask {
                if resumed {
                    do throws(ChatError) { try await chat.resume(receivedLines: ledger.receivedLines) } catch { return .interrupted }
                }
                while let line = await input.next() {
                    do throws(ChatError) {
                        try await chat.send(line)
                    } catch .lineTooLong(let bytes) {
                        Output.error("kith: not sent: \(ChatError.lineTooLong(bytes).description)")
                        continue
                    } catch {
                        // Sent again once the chat reconnects.
                        await input.putBack(line)
                        return .interrupted
                    }
                    ledger.recordSent(line)
                    if let (account, contact) = keep {
                        do {
                            _ = try await account.direct.send(line, to: contact)
                        } catch {
                            Output.error("kith: the line was sent but could not be kept: \(TerminalText.escaped("\(error)"))")
                        }
                    }
                }
                if Task.isCancelled { return .interrupted }
                await chat.sayBye()
                return .ended
            }
            let ending = await group.next() ?? .ended
            group.cancelAll()
            return ending
        }
    }

    /// Prints the other side's lines until its bye or the relay fails.
    private static func receive(_ chat: RelayChat, name: String, ledger: ChatLedger) async -> Ending {
        while true {
            let message: ChatMessage
            do throws(ChatError) {
                message = try await chat.receive()
            } catch .transport {
                return .interrupted
            } catch {
                Output.error("kith: \(error.description)")
                return .ended
            }
            switch message {
            case .line(let text):
                ledger.recordReceived()
                Output.line("\(name)> \(TerminalText.escaped(text))")
            case .bye:
                Output.error("kith: \(name) ended the chat")
                return .ended
            case .resume(let received):
                let lost = ledger.undelivered(peerReceived: received)
                guard lost.count > 0 else { continue }
                Output.error("kith: \(lost.count) of your lines did not arrive before the connection dropped (not resent):")
                for line in lost.lines { Output.error("kith:   not delivered: \(TerminalText.escaped(line))") }
            }
        }
    }
}
