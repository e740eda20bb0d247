import Foundation
import Kith
import KithGroups
import KithIdentity
import KithInvites
import KithSync

extension Demo {
    /// Step 10b: Alice opens a conversation for a meetup under a persona; Sam, a stranger, joins under a persona of his
    /// own; neither learns the other's main feed; the conversation explodes and both personas are gone
    /// (docs/GROUPS.md, section 6a).
    static func personaStep(
        alice: Account, samHome: AccountHome, passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        serverURL: String?, summary: inout Summary, say: (String) -> Void
    ) async throws {
        let sam = try await Account.create(home: samHome, passphrase: passphrase)
        let meetup = try await alice.personas.createGroup(name: "Meetup")
        say("Alice creates the conversation under a persona: a fresh identity (feed \(meetup.persona.feedID.string.prefix(8))…, her own")
        say("is \(alice.feedID.string.prefix(8))…), its seed drawn fresh and sealed under her device seed, never published.")
        let relay = InviteRelay(server: serverURL ?? "http://127.0.0.1:7460", joinCode: Self.freshJoinCode())
        let made = try await meetup.account.invites.create(group: meetup.group.id, singleUse: true, name: "Meetup", relay: relay)
        let (samPersona, samAccount) = try await sam.personas.create()
        let invite = try await samAccount.invites.prepareStrangerJoin(made.url)
        let (central, peripheral) = SimulatedBLELink.makePair()
        async let answered = meetup.account.invites.answerStranger(over: peripheral, initiator: false, deadline: .seconds(60))
        let joined = try await samAccount.invites.joinAsStranger(invite, over: central, initiator: true, deadline: .seconds(60))
        _ = try await answered
        await central.close()
        summary.personaJoined = joined == .joined(meetup.group.id)
        try await sam.personas.record(samPersona.id, conversation: meetup.group.id, in: samAccount)
        say("Sam, whom Alice never met, joins under a persona of his own (the invite exchange runs over a direct link here): "
            + "\(summary.personaJoined ? "joined" : "NOT joined").")
        let aliceSees = try await meetup.account.groups.summary(meetup.group.id).members
        let samSees = try await samAccount.groups.summary(meetup.group.id).members
        summary.personaMainFeedsHidden = !aliceSees.contains(sam.feedID) && !samSees.contains(alice.feedID)
            && invite.creatorCard.feedID == meetup.persona.feedID
        say("The invite names Alice's persona; the group lists only the two personas. Alice's main feed known to Sam: "
            + "\(summary.personaMainFeedsHidden ? "no" : "YES"); Sam's known to Alice: \(summary.personaMainFeedsHidden ? "no" : "YES").")
        try await alice.personas.explode(meetup.persona.id)
        try await sam.personas.leave(samPersona.id)
        let left = try await alice.personas.all().count + sam.personas.all().count
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: alice.home?.personasDirectory.path ?? "")) ?? []).count
            + ((try? FileManager.default.contentsOfDirectory(atPath: samHome.personasDirectory.path)) ?? []).count
        summary.personaGone = left == 0 && files == 0
        say("Alice explodes the conversation, Sam leaves it: each persona is deleted with its keys, feed and files "
            + "(\(summary.personaGone ? "nothing left" : "SOMETHING LEFT")).")
    }
}
