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
    /// `kith invite show URL_OR_CODE`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decode any Convos or Kith invite and print every field and check.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The invite: a link (https://…/v2?i=, /i/, ?code=, convos://, kith://invite/) or a bare code.")
        var invite: String

        func run() async throws {
            try await Output.run {
                // Reading an invite needs no identity (like `feed verify` or `tdf inspect`); with one, the signer is
                // also compared with the contacts' cards.
                let inspection: InviteInspection
                if FileManager.default.fileExists(atPath: global.accountHome.vaultURL.path) {
                    inspection = try await openAccount(global).invites.inspect(invite)
                } else {
                    inspection = try InviteInspection.inspect(invite, now: Int64(Date().timeIntervalSince1970))
                }
                if global.json {
                    Output.json(.object(InviteJSON.inspection(inspection)))
                } else {
                    for line in InviteJSON.lines(inspection) { Output.line(line) }
                }
            }
        }
    }
}
