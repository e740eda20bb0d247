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
}
