import Foundation
import Kith
import KithGroups
import KithInvites
import KithRendezvous

extension Demo {
    /// Step 10 with a rendezvous server: Dana and Erin never met Alice. Alice's invite carries her compact card and a
    /// join code on the server; each joiner reaches her through the blind relay and runs the invite exchange over a
    /// Noise link. Dana joins with a single-use invite; Erin's second use is refused; Alice revokes; a further invite
    /// works for Erin.
    static func strangerInviteStep(alice: Account, serverURL: String, summary: inout Summary, say: (String) -> Void) async throws {
        let dana = try Account.inMemory()
        let erin = try Account.inMemory()
        say("Dana and Erin have never met Alice: no cards exchanged, no contact on either side.")
        let group = try await alice.groups.create(name: "Book club")
        let made = try await alice.invites.create(
            group: group.id, expiresIn: 7 * 86_400, singleUse: true, name: "Book club", emoji: "📚",
            relay: InviteRelay(server: serverURL, joinCode: Self.freshJoinCode()))
        say("Alice makes a single-use invite (\(made.code.count)-character code): Convos' fields, plus, in field 1000 inside the")
        say("signed bytes, her compact card and where she answers (\(serverURL), a join code). Convos parsers skip that field.")
        let danaInvite = try await dana.invites.prepareStrangerJoin(made.url)
        say("Dana checks it: the card's signature holds and its feed id is the invite's creator id (\(danaInvite.creatorCard.feedID.string.prefix(8))…).")
        let danaOutcome = try await relayExchange(creator: alice, joiner: dana, invite: danaInvite, serverURL: serverURL)
        summary.inviteJoined = danaOutcome.joiner == .joined(group.id)
        let aliceKnowsDana = try await alice.contacts.record(dana.feedID) != nil
        let danaKnowsAlice = try await dana.contacts.record(alice.feedID) != nil
        summary.inviteJoinerWasStranger = !aliceKnowsDana && !danaKnowsAlice
        say("Over the relay Dana fetches Alice's full card (it matches the commitment; its invite key signed the invite), sends")
        say("her card and a KeyPackage; Alice runs the checks and adds her with one commit; the Welcome comes back on the link.")
        say("Dana \(summary.inviteJoined ? "joined" : "did NOT join"); neither is the other's contact (\(summary.inviteJoinerWasStranger ? "still strangers" : "CONTACTS")).")
        try await alice.groups.send(group.id, text: "Welcome, Dana!")
        let synced = try await relaySync(alice, dana, code: JoinCode.randomDigits(count: 8), serverURL: serverURL)
        let danaReads = try await dana.groups.messages(group.id).contains { message in
            if case .post(let post)? = message.content { return post.body == "Welcome, Dana!" }
            return false
        }
        summary.strangerReadGroup = synced.first.completed && synced.second.completed && danaReads
        say("Each kept the other's checked card as a group peer: not contacts, but they may sync while they share the group.")
        say("They pair by join code and sync directly through the relay (only the group's feeds); Dana reads: \(summary.strangerReadGroup ? "\"Welcome, Dana!\"" : "NOTHING").")

        let erinInvite = try await erin.invites.prepareStrangerJoin(made.url)
        let erinFirst = try await relayExchange(creator: alice, joiner: erin, invite: erinInvite, serverURL: serverURL)
        let membersAfterErin = try await alice.groups.summary(group.id).members.count
        summary.secondUseRefused = erinFirst.joiner == .refused(error: "invite_used", reason: InviteJoinRefusal.alreadyUsed.description)
            && membersAfterErin == 2
        say("Erin tries the same invite: Alice refuses (invite_used); the group still has \(membersAfterErin) members.")

        let multi = try await alice.invites.create(group: group.id, relay: InviteRelay(server: serverURL, joinCode: Self.freshJoinCode()))
        try await alice.invites.revoke(group: group.id)
        let revoked = try await relayExchange(creator: alice, joiner: erin, invite: try await erin.invites.prepareStrangerJoin(multi.url), serverURL: serverURL)
        var stillTwo = try await alice.groups.summary(group.id).members.count == 2
        if case .joined = revoked.joiner { stillTwo = false }
        say("Alice revokes (one commit rotates the group's invite tag); an older invite now fails: \(stillTwo ? "refused" : "ACCEPTED").")

        let fresh = try await alice.invites.create(group: group.id, relay: InviteRelay(server: serverURL, joinCode: Self.freshJoinCode()))
        let erinFresh = try await relayExchange(creator: alice, joiner: erin, invite: try await erin.invites.prepareStrangerJoin(fresh.url), serverURL: serverURL)
        let erinJoined = erinFresh.joiner == .joined(group.id)
        summary.revokedThenFreshWorked = stillTwo && erinJoined
        say("A new invite carries the new tag and works: Erin \(erinJoined ? "joins" : "does NOT join").")
    }

    /// One invite exchange through the server's relay: Alice offers the invite's join code and waits, the joiner
    /// accepts it, both open the room's relay and run their sides. `claim` proves a claimed join code is the
    /// creator's (as `kith invite serve` sends it), nil for an ordinary code.
    static func relayExchange(
        creator: Account, joiner: Account, invite: StrangerInvite, serverURL: String, claim: String? = nil
    ) async throws -> (creator: StrangerServeOutcome, joiner: StrangerJoinOutcome) {
        let pairing = try RelayPairing(serverURL: serverURL)
        guard let text = invite.joinCode, let code = JoinCode(text) else { throw KithError.input(.invalid("the invite has no join code")) }
        let (creatorDevice, joinerDevice) = (DeviceID.random(), DeviceID.random())
        try await pairing.offer(code, device: creatorDevice, expiresInSeconds: 60, claim: claim)
        let url = pairing.signalingURL
        async let joinerSide: StrangerJoinOutcome = {
            let room = try await pairing.accept(code, device: joinerDevice)
            return try await RelayConnection.open(signalingURL: url, room: room, device: joinerDevice, timeouts: RelayTimeouts(peer: .seconds(30))) { transport, role in
                try await joiner.invites.joinAsStranger(invite, over: transport, initiator: role == .initiator)
            }
        }()
        let room = try await pairing.waitForAcceptance(code, device: creatorDevice, pollInterval: .milliseconds(50), timeout: .seconds(30))
        let creatorOutcome = try await RelayConnection.open(signalingURL: url, room: room, device: creatorDevice, timeouts: RelayTimeouts(peer: .seconds(30))) { transport, role in
            try await creator.invites.answerStranger(over: transport, initiator: role == .initiator)
        }
        let joinerOutcome = try await joinerSide
        try? await pairing.client.deleteRoom(room)
        return (creatorOutcome, joinerOutcome)
    }

    /// 20 random lowercase letters and digits.
    static func freshJoinCode() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
