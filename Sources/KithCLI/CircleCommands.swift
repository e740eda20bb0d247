import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

/// `kith circle`: the inner circle, one-time messages under key pools exchanged in person (docs/TDF.md).
struct Circle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "circle",
        abstract: "The inner circle: one-time messages under key pools exchanged while syncing in person.",
        discussion: """
            Both people run `kith circle add` for each other, then sync (kith sync, nearby or relay): \
            the pools are exchanged inside the authenticated link. Every message uses a fresh key that \
            the reader deletes after decrypting it. Read them with `kith log --with CONTACT`.
            """,
        subcommands: [Add.self, Send.self, Status.self, Revoke.self],
        defaultSubcommand: Status.self
    )

    /// `kith circle add CONTACT [--size N]`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Arm a pool exchange with a contact for the next (or ongoing) sync session between you."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Option(help: "Keys each side generates for the other (1...65536).")
        var size: Int = Account.defaultCirclePoolSize

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                try await account.circle.add(record.feedID, poolSize: size)
                if global.json {
                    var object = JSONObject()
                    object["contact"] = .string(record.feedID.string)
                    object["pool_size"] = .integer(Int64(size))
                    object["armed"] = .bool(true)
                    Output.json(.object(object))
                } else {
                    Output.line("Armed: the next sync with \(TerminalText.escaped(record.shownName)) exchanges pools of \(size) keys (they must run `kith circle add` for you too).")
                }
            }
        }
    }

    /// `kith circle send CONTACT TEXT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a one-time message to an inner-circle contact.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Argument(help: "The text (at most 2,000 characters).")
        var text: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let envelope = try await account.circle.send(text, to: record.feedID)
                let pools = try await account.circle.status().first { $0.feedID == record.feedID.string }?.pools
                if global.json {
                    var object = JSONObject()
                    object["message_id"] = .string(envelope.messageID.string)
                    object["sequence"] = .integer(Int64(envelope.sequence))
                    object["audience"] = .string(envelope.audience.description)
                    object["keys_left"] = .integer(Int64(pools?.peerRemaining ?? 0))
                    Output.json(.object(object))
                } else {
                    Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(record.shownName)) under a one-time key (\(pools?.peerRemaining ?? 0) left)")
                    if pools?.needsRenewal == true {
                        Output.line("Their pool is below 10 %: run `kith circle add \(TerminalText.escaped(record.shownName))` at your next meeting.")
                    }
                }
            }
        }
    }

    /// `kith circle status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the pools and pending exchanges or revocations per contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let members = try await account.circle.status()
                let contacts = try await account.contacts.all()
                func name(_ feed: String) -> String { contacts.first { $0.feedID.string == feed }?.shownName ?? feed }
                if global.json {
                    Output.json(.array(members.map { member in
                        var object = JSONObject()
                        object["contact"] = .string(member.feedID)
                        object["name"] = .string(name(member.feedID))
                        object["intent"] = switch member.intent {
                        case .exchange(let size)?: .string("exchange:\(size)")
                        case .revoke?: .string("revoke")
                        case .confirm(let size)?: .string("confirm:\(size)")
                        case nil: .null
                        }
                        if let pools = member.pools {
                            object["state"] = .string(pools.state.rawValue)
                            object["exchange_id"] = .string(pools.exchangeID)
                            object["keys_to_send"] = .integer(Int64(pools.peerRemaining))
                            object["keys_to_send_capacity"] = .integer(Int64(pools.peerCapacity))
                            object["keys_to_receive"] = .integer(Int64(pools.ownRemaining))
                            object["keys_to_receive_capacity"] = .integer(Int64(pools.ownCapacity))
                            object["needs_renewal"] = .bool(pools.needsRenewal)
                        } else {
                            object["state"] = .string("none")
                        }
                        return .object(object)
                    }))
                    return
                }
                if members.isEmpty { Output.line("No inner circle yet. Try: kith circle add CONTACT, then sync with them in person.") }
                for member in members {
                    var line = TerminalText.escaped(name(member.feedID)) + ": "
                    if let pools = member.pools {
                        line += "\(pools.state.rawValue), \(pools.peerRemaining)/\(pools.peerCapacity) keys to send, \(pools.ownRemaining)/\(pools.ownCapacity) to receive"
                        if pools.needsRenewal { line += " (below 10 %: renew at your next meeting)" }
                    } else {
                        line += "no pools"
                    }
                    switch member.intent {
                    case .exchange(let size)?: line += "; exchange of \(size) keys armed for the next sync"
                    case .revoke?: line += "; revoked, they are told at the next sync"
                    case .confirm?: line += "; exchange answered, confirmed at the next sync"
                    case nil: break
                    }
                    Output.line(line)
                }
            }
        }
    }

    /// `kith circle revoke CONTACT`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke trust: delete both pools at once; the contact is told at the next sync and a new exchange is needed."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let had = try await account.circle.revoke(record.feedID)
                if global.json {
                    var object = JSONObject()
                    object["contact"] = .string(record.feedID.string)
                    object["pools_deleted"] = .bool(had)
                    Output.json(.object(object))
                } else {
                    Output.line(had
                        ? "Revoked: both pools with \(TerminalText.escaped(record.shownName)) are deleted; they are told at the next sync."
                        : "No pools with \(TerminalText.escaped(record.shownName)); they are told at the next sync that you revoked.")
                }
            }
        }
    }
}
