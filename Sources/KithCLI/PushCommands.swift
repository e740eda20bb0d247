import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithDemo
import KithFeed
import KithIdentity
import KithPushClient
import KithStore
import KithSync
import KithTerminal

/// `kith push register|status|refill`: push knocks, this identity's side (docs/PUSH-CLIENT.md).
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register for push knocks and hand contacts tokens to wake this device.",
        discussion: """
            Contacts knock (`kith knock NAME`) with whitelist tokens you gave them inside your direct channel; the gateway \
            wakes your device through the push service, and `kith knocks listen` prints who knocked. Tokens are refilled \
            automatically by `kith push register`, `kith push refill` and every `kith sync connect`/`listen` once registered.
            """,
        subcommands: [Register.self, Status.self, Refill.self]
    )

    /// `kith push register --server URL [--push-service URL]`.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an anonymous gateway account, a push subscription with fresh RFC 8291 keys, and register this device.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "The push gateway (a `kith serve`), e.g. http://127.0.0.1:8080.")
        var server: String

        @Option(name: .customLong("push-service"), help: "The push service (default: the same `kith serve` as --server).")
        var pushService: String?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await PushFlows.register(account, gatewayURL: server, pushServiceURL: pushService)
                let refilled = try await PushFlows.refill(account)
                if global.json {
                    var object = PushRendering.registration(record)
                    object["refilled"] = PushRendering.refilled(refilled)
                    Output.json(.object(object))
                } else {
                    Output.line("Registered for push knocks: gateway \(TerminalText.escaped(record.gatewayURL)), push service \(TerminalText.escaped(record.pushServiceURL)).")
                    Output.line("The account is anonymous; its password, auth token, subscription secret and decryption keys are sealed in your store.")
                    PushRendering.printRefilled(refilled)
                }
            }
        }
    }

    /// `kith push status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the push registration and the token pools with each contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let registration = try await account.push.registration()
                let pools = try await account.push.tokenPools()
                let pending = try await account.push.pendingRevocations().count
                if global.json {
                    var object = registration.map(PushRendering.registration) ?? JSONObject()
                    object["registered"] = .bool(registration != nil)
                    var entries: [JSONValue] = []
                    for pool in pools {
                        var entry = JSONObject()
                        entry["feed_id"] = .string(pool.peer.string)
                        entry["name"] = .string(await account.contacts.displayName(of: pool.peer))
                        entry["issued_unused"] = .integer(Int64(pool.issuedUnused))
                        entry["issued_used"] = .integer(Int64(pool.issuedUsed))
                        entry["held_unused"] = .integer(Int64(pool.heldUnused))
                        entry["held_spent"] = .integer(Int64(pool.heldSpent))
                        entries.append(.object(entry))
                    }
                    object["contacts"] = .array(entries)
                    object["pending_revocations"] = .integer(Int64(pending))
                    Output.json(.object(object))
                    return
                }
                if let registration {
                    Output.line("Registered: gateway \(TerminalText.escaped(registration.gatewayURL)), push service \(TerminalText.escaped(registration.pushServiceURL)).")
                } else {
                    Output.line("Not registered for push knocks (run `kith push register --server URL`). Tokens contacts gave you still work for `kith knock`.")
                }
                if pools.isEmpty { Output.line("No push tokens with anyone yet.") }
                for pool in pools {
                    let name = TerminalText.escaped(await account.contacts.displayName(of: pool.peer))
                    Output.line("  \(name): you gave \(pool.issuedUnused) unused (\(pool.issuedUsed) used); you hold \(pool.heldUnused) to knock on them")
                }
                if pending > 0 { Output.line("\(pending) tokens wait to be revoked at the gateway (`kith push refill` retries).") }
            }
        }
    }

    /// `kith push refill`.
    struct Refill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue fresh tokens to every contact holding fewer than 5 and queue them in push_tokens direct messages.",
            discussion: "Each contact gets tokens of its own. The messages travel with your next sync. Pending revocations are retried.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                guard try await account.push.registration() != nil else { throw PushFlows.FlowError.notRegistered }
                let refilled = try await PushFlows.refill(account)
                if global.json {
                    Output.json(.object(["refilled": PushRendering.refilled(refilled)]))
                } else {
                    PushRendering.printRefilled(refilled)
                }
            }
        }
    }
}

/// `kith knock CONTACT [--json]`.
struct KnockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "knock",
        abstract: "Wake a contact's device with one of the push tokens they gave you (no content travels).",
        discussion: "A token the contact's gateway refuses (404: expired or revoked) is dropped and the next one is tried.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's feed id or name.")
    var contact: String

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let record = try await account.contacts.resolve(contact)
            let outcome = try await PushFlows.knock(account, contact: record.feedID)
            if global.json {
                var object = JSONObject()
                object["knocked"] = .string(record.feedID.string)
                object["name"] = .string(record.shownName)
                object["dropped_tokens"] = .integer(Int64(outcome.dropped))
                Output.json(.object(object))
            } else {
                Output.line("Knocked on \(TerminalText.escaped(record.shownName)): their device wakes and can sync with you."
                    + (outcome.dropped > 0 ? " (\(outcome.dropped) refused tokens were dropped.)" : ""))
            }
        }
    }
}

/// `kith knocks listen [--json] [--sync-with ADDR | --once]`.
struct KnocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "knocks", abstract: "Receive push knocks.", subcommands: [Listen.self])

    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Listen on this device's push subscription and print who knocked.",
            discussion: "Knocks are decrypted with the RFC 8291 keys `kith push register` made and mapped to the contact the token was given to. The connection is re-opened with backoff when it drops.")

        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("sync-with"), help: "After each knock, sync with the contact's `kith sync listen` at HOST:PORT.")
        var syncWith: String?

        @Flag(help: "Return after the first knock.")
        var once = false

        func validate() throws {
            if syncWith != nil, once { throw ValidationError("--sync-with and --once cannot be combined") }
        }

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                guard try await account.push.registration() != nil else { throw PushFlows.FlowError.notRegistered }
                let json = global.json
                let once = once
                let address = try syncWith.map(SyncRun.hostAndPort)
                if !json { Output.error("Listening for knocks (Ctrl-C to stop)…") }
                try await PushFlows.listen(account, onRejected: { error in
                    Output.error("kith: \(TerminalText.escaped(error.description))")
                }) { knock in
                    PushRendering.printKnock(knock, json: json)
                    if let address, let contact = knock.contact {
                        try await KnockSync.run(account: account, host: address.0, port: address.1, contact: contact, json: json)
                    }
                    // A used token is spent: top the contact up (queued for the next sync).
                    _ = try? await PushFlows.refill(account)
                    return once ? .stop : .keepListening
                }
            }
        }
    }
}

/// The sync a knock triggers.
enum KnockSync {
    static func run(account: Account, host: String, port: Int, contact: FeedID, json: Bool) async throws {
        let record = try await account.contacts.record(contact)
        let agent = SyncAgent(account: account)
        let link: SecureLink
        do throws(SecureLinkError) {
            link = try await agent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
                try await TCPTransport.connect(host: host, port: port)
            }, contact: record)
        } catch {
            Output.error("kith: the sync after the knock failed: \(TerminalText.escaped(error.description))")
            return
        }
        _ = await SyncRun.session(link: link, agent: agent, json: json)
    }
}

/// Rendering of push state.
enum PushRendering {
    static func registration(_ record: PushRegistrationRecord) -> JSONObject {
        var object = JSONObject()
        object["gateway"] = .string(record.gatewayURL)
        object["push_service"] = .string(record.pushServiceURL)
        object["account"] = .string(record.accountUsername)
        return object
    }

    static func refilled(_ refilled: [PushFlows.Refilled]) -> JSONValue {
        .array(refilled.map { entry in
            var object = JSONObject()
            object["feed_id"] = .string(entry.contact.string)
            object["name"] = .string(entry.name)
            object["tokens"] = .integer(Int64(entry.count))
            return .object(object)
        })
    }

    static func printRefilled(_ refilled: [PushFlows.Refilled]) {
        if refilled.isEmpty { Output.line("Every contact holds enough of your push tokens.") }
        for entry in refilled {
            Output.line("Queued \(entry.count) push tokens for \(TerminalText.escaped(entry.name)) (a push_tokens direct message; it travels with your next sync).")
        }
    }

    static func printKnock(_ knock: PushFlows.HeardKnock, json: Bool) {
        if json {
            var object = JSONObject()
            object["type"] = .string("knock")
            object["feed_id"] = knock.contact.map { .string($0.string) } ?? .null
            object["name"] = knock.name.map { .string($0) } ?? .null
            object["data"] = knock.data.map { .string($0) } ?? .null
            object["replayed"] = .bool(knock.replayed)
            Output.json(.object(object))
        } else if let name = knock.name {
            Output.line("«\(TerminalText.escaped(name))» knocked" + (knock.replayed ? " (with a token already used)" : ""))
        } else {
            Output.line("someone knocked with a token you did not give (or revoked): ignored")
        }
    }
}

/// The automatic refill `kith sync` runs before a session once registered, so the `push_tokens` messages
/// travel in that very session. A gateway that cannot be reached only prints a warning.
enum PushAutoRefill {
    static func run(_ account: Account) async {
        guard (try? await account.push.registration()) != nil else { return }
        do {
            _ = try await PushFlows.refill(account)
        } catch {
            Output.error("kith: warning: push tokens not refilled: \(TerminalText.escaped("\(error)"))")
        }
    }
}
