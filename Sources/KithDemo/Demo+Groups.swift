import Foundation
import Kith
import KithFeed
import KithGroups
import KithStore

extension Demo {
    /// Step 9: a group conversation on MLS whose messages travel in the members' feeds; a removal; an explosion.
    static func groupStep(alice: Account, bob: Account, summary: inout Summary, say: (String) -> Void) async throws(KithError) {
        let carol = try Account.inMemory()
        try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        say("Carol meets Alice and they exchange cards too. Bob and Carol do not know each other.")
        try await bob.groups.shareKeyPackage(with: alice.feedID)
        try await carol.groups.shareKeyPackage(with: alice.feedID)
        try await deliver(bob, to: alice)
        try await deliver(carol, to: alice)
        say("Bob and Carol each hand Alice an MLS KeyPackage over their direct session (an offer to be added to one group).")

        let created = try await alice.groups.create(name: "Saturday climb", explodeAt: Int64(Date().timeIntervalSince1970) + 7 * 86_400)
        let group = created.id
        let added = try await alice.groups.add(group, contacts: [bob.feedID, carol.feedID])
        say("Alice creates the group \"Saturday climb\" (set to explode in 7 days) and adds both: one MLS commit in her feed")
        say("(a group_event, itself encrypted), and a Welcome to each as a direct message. Epoch \(added.epoch), \(added.members.count) members.")
        try await deliver(alice, to: bob)
        try await deliver(alice, to: carol)
        let bobJoined = try await bob.groups.summary(group).status
        let carolJoined = try await carol.groups.summary(group).status
        summary.groupJoined = bobJoined == .active && carolJoined == .active
        say("Bob and Carol sync Alice's feed and join. Each now follows the others' feeds: group messages live there.")

        try await alice.groups.send(group, text: "Meet at the gym at 9?")
        try await deliver(alice, to: bob)
        try await deliver(alice, to: carol)
        try await bob.groups.send(group, text: "I'll bring the rope.")
        try await carol.groups.send(group, text: "9 is fine.")
        for member in [bob, carol] { try await deliver(member, to: alice) }
        try await deliver(bob, to: carol)
        try await deliver(carol, to: bob)
        for message in try await alice.groups.messages(group) {
            if case .post(let post)? = message.content {
                let author = message.feedID == alice.feedID ? "Alice" : await alice.contacts.displayName(of: message.feedID)
                say("  \(author): \(post.body)")
            }
        }
        let bobRead = try await texts(bob, group).count
        let carolRead = try await texts(carol, group).count
        summary.groupMessagesRead = bobRead == 3 && carolRead == 3
        say("Every message is an MLS PrivateMessage (audience group:…) in its author's feed; everyone read all three.")

        try await alice.groups.remove(group, member: carol.feedID)
        try await alice.groups.send(group, text: "Carol can't make it; just us two.")
        try await deliver(alice, to: bob)
        try await deliver(alice, to: carol)
        let carolStatus = try await carol.groups.summary(group).status
        let carolTexts = try await texts(carol, group)
        summary.removedLockedOut = !carolTexts.contains("Carol can't make it; just us two.")
        say("Alice removes Carol (a new epoch with new keys) and writes again. Carol syncs: she is out (\(carolStatus.rawValue)) and")
        say("cannot read the new message; as in Convos, leaving an exploding conversation deletes her copy.")

        try await alice.groups.explode(group)
        try await deliver(alice, to: bob)
        var remaining = 0
        for member in [alice, bob, carol] {
            remaining += try await member.groups.messages(group).filter { $0.content != nil }.count
        }
        let bobStatus = try await bob.groups.summary(group).status
        summary.groupExploded = remaining == 0 && bobStatus == .exploded
        say("Alice explodes the conversation early: one commit sets the explosion time to now in the group's metadata, the last one")
        say("removes Bob; she deletes her state, keys and messages, and Bob does the same when he syncs, whatever his clock says.")
        say("Readable group messages left in the three stores: \(remaining).")
        say("The envelopes stay (the feeds' hash chains need them); their content is gone, and nothing new is accepted.")
    }

    private static func deliver(_ from: Account, to: Account) async throws(KithError) {
        _ = try await to.feed.importKnown(lines: try await from.feed.export())
    }

    private static func texts(_ account: Account, _ group: GroupID) async throws(KithError) -> [String] {
        try await account.groups.messages(group).compactMap { message in
            if case .post(let post)? = message.content { post.body } else { nil }
        }
    }
}
