import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithRendezvous
import KithTerminal

/// `kith invite …`: Convos-compatible signed invites to groups (docs/INVITES.md).
struct InviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Invites to groups: create, show (any Convos or Kith invite), accept, serve, revoke.",
        discussion: """
            An invite is a signed link (Convos' format) naming a group by a token only its creator can open. \
            Whoever holds it sends the creator a join request; the creator's next processing checks it and adds \
            the requester with an MLS commit. Revoking rotates the group's invite tag, which voids every \
            outstanding invite. An invite made with --via SERVER also reaches joiners who never met its creator: \
            it carries the creator's compact card and a join code on that `kith serve`, where `kith invite serve` \
            answers them over the blind relay.
            """,
        subcommands: [Create.self, Show.self, Accept.self, Serve.self, Revoke.self]
    )

    /// `kith invite create GROUP`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an invite to a group (committer only); prints its link and QR code.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: GroupCommand.Target

        @Option(help: "The invite expires after this long: 90s, 30m, 12h, 7d.")
        var expiresIn: String?

        @Flag(help: "The first successful join uses the invite up.")
        var singleUse = false

        @Option(help: "Public preview: the conversation's name (at most 128 bytes; not encrypted).")
        var name: String?

        @Option(help: "Public preview: a description (at most 1,024 bytes; not encrypted).")
        var description: String?

        @Option(help: "Public preview: an https image URL (at most 2,048 bytes).")
        var imageURL: String?

        @Option(help: "Public preview: an emoji.")
        var emoji: String?

        @Option(name: .customLong("via"), help: "Let people who never met you join: answer them through this `kith serve` (its URL goes into the invite with your compact card and a join code; run `kith invite serve` to answer).")
        var via: String?

        @Option(help: "With --via: an ordinary join code to offer there instead of the default claimed one (anyone who reads the invite could offer an ordinary code first; see docs/INVITES.md).")
        var joinCode: String?

        @Flag(help: "Do not draw the QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let group = try await account.groups.resolve(target.group)
                let lifetime = try expiresIn.map(InviteDuration.parse)
                if joinCode != nil, via == nil { throw KithError.input(.invalid("--join-code needs --via SERVER_URL")) }
                if let joinCode, joinCode.hasPrefix(JoinCodeClaim.prefix) {
                    throw KithError.input(.invalid("--join-code may not start with '\(JoinCodeClaim.prefix)' (claimed codes are made by Kith; leave --join-code out to get one)"))
                }
                let relay = via.map { InviteRelay(server: $0, joinCode: joinCode ?? InviteServeRun.claimedJoinCode(for: account)) }
                let made = try await account.invites.create(
                    group: group.id, expiresIn: lifetime, singleUse: singleUse, name: name, description: description,
                    imageURL: imageURL, emoji: emoji, relay: relay)
                if global.json {
                    var object = InviteJSON.fields(of: made.invite)
                    object["code"] = .string(made.code)
                    object["url"] = .string(made.url)
                    object["convos_url"] = .string(made.convosURL)
                    if let qrText = made.qrText { object["qr_text"] = .string(qrText) }
                    Output.json(.object(object))
                    return
                }
                Output.line(made.url)
                // The QR form (KITH://QR/ + base32) is all QR-alphanumeric: a smaller symbol than the link's.
                if !noQR { Output.line(try QRCode.render(made.qrText ?? made.url)) }
                Output.line("Tag \(made.invite.payload.tag)\(singleUse ? ", single use" : "")"
                    + (made.invite.payload.expiresAtUnix.map { ", expires at \($0) (Unix seconds)" } ?? ", no expiry"))
                if relay != nil {
                    Output.line("Joiners who never met you reach you through \(TerminalText.escaped(via ?? "")); answer them with: kith invite serve '\(made.url)'")
                }
            }
        }
    }

    /// `kith invite show URL_OR_CODE`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decode any Convos or Kith invite and print every field and check.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The invite: a link (https://…/v2?i=, /i/, ?code=, convos://, kith://invite/) or a bare code.")
        var invite: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let inspection = try await account.invites.inspect(invite)
                if global.json {
                    Output.json(.object(InviteJSON.inspection(inspection)))
                } else {
                    for line in InviteJSON.lines(inspection) { Output.line(line) }
                }
            }
        }
    }

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

        func run() async throws {
            try await Output.run {
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
    }

    /// `kith invite serve URL`.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer joiners who never met you, for an invite made with --via: offer its join code on its server and run the invite exchange."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Your invite link or code (made with `kith invite create --via`).")
        var invite: String

        @Option(help: "Answer this many joiners (admitted or refused), then stop; a joiner that takes the code but does not finish the exchange does not count, and the code is offered again at once.")
        var count: Int = 1

        @Option(help: "Seconds to wait for each joiner.")
        var timeout: Int = 300

        func run() async throws {
            try await Output.run {
                guard (1...1_000).contains(count) else { throw KithError.input(.invalid("--count must be between 1 and 1000")) }
                guard (1...86_400).contains(timeout) else { throw KithError.input(.invalid("--timeout must be between 1 and 86400 seconds")) }
                let account = try await openAccount(global)
                try await InviteServeRun.serve(account: account, text: invite, count: count, timeout: timeout, json: global.json)
            }
        }
    }

    /// `kith invite revoke GROUP`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Void every outstanding invite to a group (rotates its invite tag; committer only).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: GroupCommand.Target

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let group = try await account.groups.resolve(target.group)
                let after = try await account.invites.revoke(group: group.id)
                let tag = after.metadata?.tag ?? ""
                if global.json {
                    var object = JSONObject()
                    object["group_id"] = .string(after.id.string)
                    object["tag"] = .string(tag)
                    Output.json(.object(object))
                } else {
                    Output.line("Revoked every outstanding invite to \(TerminalText.escaped(after.name ?? after.id.string)); new tag \(tag).")
                }
            }
        }
    }
}

/// Parses `--expires-in`.
enum InviteDuration {
    static func parse(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last, let factor = units[unit], let count = Int64(text.dropLast()), count > 0, count <= 3650 * 86_400 / factor else {
            throw KithError.input(.invalid("--expires-in takes a positive duration like 90s, 30m, 12h or 7d (up to 10 years)"))
        }
        return count * factor
    }
}
