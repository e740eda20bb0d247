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
                let account = try await selectAccount(global, holdingGroup: target.group).account
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
}
