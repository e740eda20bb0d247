import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith dm`: sends a direct message to one contact.
struct DM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dm",
        abstract: "Send an end-to-end encrypted direct message to one contact (Double Ratchet).",
        discussion: """
            The message goes into your feed with audience direct:FEED_ID; only that contact can read \
            it, after importing or syncing your feed. Read conversations with `kith log --with CONTACT`.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact: a name or a feed id.")
    var contact: String

    @Argument(help: "The text (at most 2,000 characters).")
    var text: String

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let record = try await account.contacts.resolve(contact)
            let before = try await account.direct.prekeyPool(with: record.feedID)?.handedRemaining ?? 0
            let envelope = try await account.direct.send(text, to: record.feedID)
            let refilled = max(0, (try await account.direct.prekeyPool(with: record.feedID)?.handedRemaining ?? 0) - before)
            if global.json {
                var object = JSONObject()
                object["message_id"] = .string(envelope.messageID.string)
                object["sequence"] = .integer(Int64(envelope.sequence))
                object["audience"] = .string(envelope.audience.description)
                object["prekeys_sent"] = .integer(Int64(refilled))
                Output.json(.object(object))
            } else {
                Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(record.shownName)) (message \(envelope.messageID))")
                if refilled > 0 { Output.line("Also sent \(TerminalText.escaped(record.shownName)) \(refilled) fresh one-time prekeys (their pool from you was low).") }
            }
        }
    }
}

/// `kith prekeys`: one-time prekey pools per contact (status, in-person handover, refill).
struct Prekeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One-time prekeys: status per contact, hand them over in person, refill over a session.",
        subcommands: [Status.self, Export.self, Import.self, Send.self],
        defaultSubcommand: Status.self
    )

    /// Which contact gets a fresh batch, and how many keys.
    struct BatchOptions: ParsableArguments {
        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Option(help: "How many keys (1...8192).")
        var count: Int = Account.defaultPrekeyBatch
    }

    /// `kith prekeys status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the prekey pools with every contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let pools = try await account.direct.prekeyPools()
                if global.json {
                    var rows: [JSONValue] = []
                    for pool in pools {
                        var object = JSONObject()
                        object["feed_id"] = .string(pool.peer.string)
                        object["name"] = .string(await account.contacts.displayName(of: pool.peer))
                        object["handed_remaining"] = .integer(Int64(pool.handedRemaining))
                        object["last_batch_size"] = .integer(Int64(pool.lastBatchSize))
                        object["held"] = .integer(Int64(pool.held))
                        object["session"] = .bool(pool.hasSession)
                        object["needs_refill"] = .bool(pool.needsRefill)
                        rows.append(.object(object))
                    }
                    Output.json(.array(rows))
                    return
                }
                if pools.isEmpty { Output.line("No contacts yet. Exchange cards first: kith card / kith contact add CARD") }
                for pool in pools {
                    let name = TerminalText.escaped(await account.contacts.displayName(of: pool.peer))
                    let handed = pool.lastBatchSize == 0 ? "none handed yet" : "\(pool.handedRemaining)/\(pool.lastBatchSize) of yours left"
                    let warning = pool.needsRefill ? "  <- low: run `kith prekeys send \(name)` or hand over `kith prekeys export \(name)`" : ""
                    Output.line("\(name): \(handed), \(pool.held) of theirs held, session \(pool.hasSession ? "established" : "not yet")\(warning)")
                }
            }
        }
    }

    /// `kith prekeys export CONTACT`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue fresh one-time prekeys for a contact and print the signed handover (give it to them in person)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var batch: BatchOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let handover = try await account.direct.prekeyHandover(for: try await account.contacts.resolve(batch.contact).feedID, count: batch.count)
                if global.json {
                    var object = JSONObject()
                    object["handover"] = .string(handover.text)
                    object["count"] = .integer(Int64(handover.batch.entries.count))
                    Output.json(.object(object))
                } else {
                    Output.line(handover.text)
                }
            }
        }
    }

    /// `kith prekeys import CONTACT HANDOVER`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store the one-time prekeys a contact handed you in person.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Argument(parsing: .allUnrecognized, help: "The handover text, or a file containing it, or - for standard input.")
        var handover: [String] = []

        func run() async throws {
            try await Output.run {
                guard let argument = handover.first, handover.count == 1 else { throw KithError.input(.invalid("pass exactly one handover text or file")) }
                let text: String
                if argument == "-" || FileManager.default.fileExists(atPath: argument) {
                    text = String(decoding: try Output.readLines(argument, maxBytes: 1 << 20).joined(), as: UTF8.self)
                } else {
                    text = argument
                }
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let added = try await account.direct.importPrekeyHandover(text, from: record.feedID)
                if global.json {
                    var object = JSONObject()
                    object["added"] = .integer(Int64(added))
                    Output.json(.object(object))
                } else {
                    Output.line("Stored \(added) one-time prekeys of \(TerminalText.escaped(record.shownName)).")
                }
            }
        }
    }

    /// `kith prekeys send CONTACT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a contact fresh one-time prekeys inside your direct session (a prekey_batch message)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var batch: BatchOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let envelopes = try await account.direct.sendPrekeys(to: try await account.contacts.resolve(batch.contact).feedID, count: batch.count)
                if global.json {
                    var object = JSONObject()
                    object["messages"] = .array(envelopes.map { .string($0.messageID.string) })
                    Output.json(.object(object))
                } else {
                    Output.line("Sent \(batch.count) one-time prekeys in \(envelopes.count) message\(envelopes.count == 1 ? "" : "s").")
                }
            }
        }
    }
}
