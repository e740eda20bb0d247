import Foundation
import Kith
import KithGroups
import KithInvites

extension Demo {
    /// Step 10: invites. Alice makes a single-use invite to her group; Dana joins with it; Erin's second use is
    /// refused; Alice revokes; a further invite still works.
    ///
    /// Dana and Erin exchange cards with Alice first: a join request travels over a direct session, which needs the
    /// creator's keys (joining with no contact at all is not built yet; docs/INVITES.md).
    static func inviteStep(alice: Account, summary: inout Summary, say: (String) -> Void) async throws(KithError) {
        let dana = try Account.inMemory()
        let erin = try Account.inMemory()
        for (person, name) in [(dana, "Dana"), (erin, "Erin")] {
            try await person.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
            try await alice.contacts.add(cardText: try await person.contacts.card(displayName: name).text, name: name)
        }
        say("Dana and Erin exchange cards with Alice (their cards carry their secp256k1 invite keys, signed by their identity keys).")
        let group = try await alice.groups.create(name: "Book club")
        let made = try await alice.invites.create(group: group.id, expiresIn: 7 * 86_400, singleUse: true, name: "Book club", emoji: "📚")
        say("Alice makes a single-use invite, Convos' format (\(made.code.count)-character code, signed by her invite key):")
        say("  " + made.url.prefix(72) + "…")
        let seen = try await dana.invites.inspect(made.url)
        say("Dana reads it: signer \(seen.isAuthenticated ? "is the invite key on Alice's card" : "NOT authenticated"); tag \(seen.invite.payload.tag).")
        try await dana.invites.accept(made.url)
        try await deliverInvite(dana, to: alice)
        try await deliverInvite(alice, to: dana)
        summary.inviteJoined = try await dana.groups.summary(group.id).status == .active
        say("Dana sends Alice a join request with a KeyPackage; Alice checks it (expiry, creator, signature, token, group, tag,")
        say("single use) and adds her with one commit; Dana joins from the Welcome: \(summary.inviteJoined ? "joined" : "NOT joined").")

        try await erin.invites.accept(made.url)
        try await deliverInvite(erin, to: alice)
        try await deliverInvite(alice, to: erin)
        let erinStatus = try await erin.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag)
        let membersAfterErin = try await alice.groups.summary(group.id).members.count
        summary.secondUseRefused = erinStatus == "refused" && membersAfterErin == 2
        say("Erin tries the same invite: Alice refuses (the invite was used) and tells her; the group still has \(membersAfterErin) members.")

        let multi = try await alice.invites.create(group: group.id)
        try await alice.invites.revoke(group: group.id)
        try await erin.invites.accept(multi.url)
        try await deliverInvite(erin, to: alice)
        try await deliverInvite(alice, to: erin)
        let stillTwo = try await alice.groups.summary(group.id).members.count == 2
        say("Alice revokes her outstanding invites (one commit rotates the group's invite tag); an older invite now fails: \(stillTwo ? "refused" : "ACCEPTED").")

        let fresh = try await alice.invites.create(group: group.id)
        try await erin.invites.accept(fresh.url)
        try await deliverInvite(erin, to: alice)
        try await deliverInvite(alice, to: erin)
        let erinJoined = try await erin.groups.summary(group.id).status == .active
        summary.revokedThenFreshWorked = stillTwo && erinJoined
        say("A new invite carries the new tag and works: Erin \(erinJoined ? "joins" : "does NOT join").")
    }

    private static func deliverInvite(_ from: Account, to: Account) async throws(KithError) {
        _ = try await to.feed.importKnown(lines: try await from.feed.export())
    }
}
