import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithRendezvous
import KithTerminal

extension InviteCommand {
    /// `kith invite accept URL`.
    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask the invite's creator to add you: a join request to a contact, or, for a creator you never met, the invite exchange through its server."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The invite link or code.")
        var invite: String

        @Option(help: "Seconds to wait for the creator on its server (stranger joins).")
        var timeout: Int = 120

        @Flag(help: "Join under a fresh persona: an identity of its own for this conversation, never linked to yours (docs/GROUPS.md, \"Personas\"). Needs an invite made with --via.")
        var persona = false

        func run() async throws {
            try await Output.run {
                if persona {
                    try await acceptUnderPersona()
                    return
                }
                let account = try await openAccount(global)
                let inspection = try await account.invites.inspect(invite)
                if let creator = inspection.invite.payload.creatorInboxID.feedID, creator != account.feedID,
                   try await account.contacts.record(creator) == nil {
                    guard inspection.invite.payload.reach != nil else {
                        throw KithError.input(.invalid("you never met this invite's creator and the invite carries no way to reach them: ask for an invite made with `kith invite create --via SERVER_URL`, or meet and exchange cards first"))
                    }
                    try await InviteServeRun.acceptAsStranger(account: account, text: invite, timeout: timeout, json: global.json)
                    return
                }
                let sent = try await account.invites.accept(invite)
                let tag = sent.invite.payload.tag
                if global.json {
                    var object = JSONObject()
                    object["tag"] = .string(tag)
                    object["creator"] = .string(sent.invite.payload.creatorInboxID.feedID?.string ?? "")
                    object["status"] = .string("pending")
                    Output.json(.object(object))
                } else {
                    let name = sent.invite.payload.name.map { " to \(TerminalText.escaped($0))" } ?? ""
                    Output.line("Sent a join request\(name) (tag \(TerminalText.escaped(tag))). Sync; the creator adds you when it processes it.")
                }
            }
        }

        /// `--persona`: a fresh persona joins through the invite exchange (the persona has no contacts, so the invite must
        /// carry a way to reach its creator); the persona is deleted when the join does not complete.
        private func acceptUnderPersona() async throws {
            guard global.personaID == nil else { throw KithError.input(.invalid("--persona makes a fresh persona; it cannot be combined with --persona-id")) }
            let main = try await openMainAccount(global)
            guard try await main.invites.inspect(invite).invite.payload.reach != nil else {
                throw KithError.input(.invalid("a persona joins only through the invite exchange: ask for an invite made with `kith invite create --via SERVER_URL`"))
            }
            let (created, account) = try await main.personas.create()
            do {
                try await InviteServeRun.acceptAsStranger(account: account, text: invite, timeout: timeout, json: global.json) { group in
                    let recorded = try await main.personas.record(created.id, conversation: group, in: account)
                    return [("persona_id", JSONValue.string(recorded.feedID.string)), ("persona", JSONValue.string(recorded.id))]
                }
            } catch {
                try? await main.personas.delete(created.id)
                throw error
            }
        }
    }
}
