@testable import Kith
import Foundation
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithSync
import Testing

/// Issue 27, items 2 and 5: what a persona emits — invite code, link and QR text, card, feed entries, the invite
/// exchange (Noise handshake, card, KeyPackage, Welcome) — holds none of the main identity's keys or feed id, in any
/// encoding, and none of another persona's; two persona invites share no identifier.
@Suite struct PersonaUnlinkabilityTests {
    static let relay = InviteRelay(server: "http://127.0.0.1:7460", joinCode: "abcdefghij0123456789")

    @Test func twoPersonaInvitesShareNoIdentifierAndNameNoMainKey() async throws {
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await PersonaTestSupport.mainAccount(home: home)
        _ = try await main.publishing.setProfile(displayName: "Alice Main")
        let first = try await main.personas.createGroup(name: "meetup")
        let second = try await main.personas.createGroup(name: "hike")
        let invites = [
            try await first.account.invites.create(group: first.group.id, name: "Meetup", relay: Self.relay),
            try await second.account.invites.create(group: second.group.id, name: "Hike", relay: Self.relay),
        ]
        let mainNeedles = PersonaTestSupport.needles(of: main.identity) + [("main name", Array("Alice Main".utf8))]
        let personas = [first.account, second.account]
        for (index, made) in invites.enumerated() {
            let other = personas[1 - index]
            let payloadBytes = try made.invite.payload.serializedBytes()
            let emitted = [Array(made.code.utf8), Array(made.url.utf8), Array(made.convosURL.utf8), Array((made.qrText ?? "").utf8),
                           made.invite.serializedBytes(), payloadBytes]
            let decoded = (try? Base64URL.decode(made.code.replacingOccurrences(of: "*", with: ""))) ?? []
            for bytes in emitted + [decoded] {
                #expect(PersonaTestSupport.found(mainNeedles, in: bytes) == [], "invite \(index) names the main identity")
                #expect(PersonaTestSupport.found(PersonaTestSupport.needles(of: other.identity), in: bytes) == [], "invite \(index) names the other persona")
            }
            #expect(made.invite.payload.creatorInboxID.feedID == personas[index].feedID)
        }
        // No identifier in common: creator, tag, conversation token, signer, reach card.
        let (a, b) = (invites[0].invite.payload, invites[1].invite.payload)
        #expect(a.creatorInboxID != b.creatorInboxID && a.tag != b.tag && a.conversationToken != b.conversationToken)
        #expect(try a.reach?.compactCard().feedID != b.reach?.compactCard().feedID)
        #expect(try invites[0].invite.recoverSigner() != invites[1].invite.recoverSigner())

        // The persona's card and feed hold nothing of the main identity (no profile, no contacts carried over).
        for persona in personas {
            let card = try await persona.contacts.card()
            #expect(PersonaTestSupport.found(mainNeedles, in: Array(card.text.utf8) + ((try? Base64URL.decode(card.text)) ?? [])) == [])
            for line in try await persona.feed.export() {
                #expect(PersonaTestSupport.found(mainNeedles, in: line) == [], "a persona feed entry names the main identity")
            }
        }
    }

    /// Alice opens a persona conversation, Dana (whom Alice never met) joins under a persona of her own through the
    /// invite exchange; every byte of the exchange and of both feeds is free of both main identities; the members
    /// read each other; Alice explodes; Dana's persona is gone on her next open.
    @Test func aStrangerJoinsUnderAPersonaAndNeitherLearnsTheOthersMainFeed() async throws {
        let (homeA, homeD) = (PersonaTestSupport.temporaryHome(), PersonaTestSupport.temporaryHome())
        defer { for home in [homeA, homeD] { try? FileManager.default.removeItem(at: home.directory) } }
        let alice = try await PersonaTestSupport.mainAccount(home: homeA)
        let dana = try await PersonaTestSupport.mainAccount(home: homeD)
        let meetup = try await alice.personas.createGroup(name: "meetup")
        let made = try await meetup.account.invites.create(group: meetup.group.id, singleUse: true, relay: Self.relay)
        let (danaPersona, danaAccount) = try await dana.personas.create()
        let invite = try await danaAccount.invites.prepareStrangerJoin(made.url)

        let (central, peripheral) = SimulatedBLELink.makePair()
        let joinerSide = RecordingTransport(central)
        let creatorSide = RecordingTransport(peripheral)
        async let answered = meetup.account.invites.answerStranger(over: creatorSide, initiator: false, deadline: .seconds(120))
        let joined = try await danaAccount.invites.joinAsStranger(invite, over: joinerSide, initiator: true, deadline: .seconds(120))
        #expect(joined == .joined(meetup.group.id))
        #expect(try await answered == .admitted(group: meetup.group.id, member: danaAccount.feedID))
        await central.close()
        let recorded = try await dana.personas.record(danaPersona.id, conversation: meetup.group.id, in: danaAccount)
        #expect(recorded.state == .active)

        let mains = PersonaTestSupport.needles(of: alice.identity) + PersonaTestSupport.needles(of: dana.identity)
        #expect(PersonaTestSupport.found(mains, in: joinerSide.recorded) == [], "the invite exchange names a main identity")
        #expect(PersonaTestSupport.found(mains, in: creatorSide.recorded) == [])

        try await meetup.account.groups.send(meetup.group.id, text: "the cafe at eight")
        _ = try await danaAccount.feed.importKnown(lines: try await meetup.account.feed.export())
        try await danaAccount.groups.send(meetup.group.id, text: "on my way")
        // Sync sessions between the two personas (as group peers): every handshake and request byte is recorded. A
        // session cut short on a loaded machine is run again (at most five), as a user would sync again.
        func hasPost(_ account: Account, _ body: String) async throws -> Bool {
            try await account.groups.messages(meetup.group.id).contains { if case .post(let post)? = $0.content { post.body == body } else { false } }
        }
        var recordedSync: [[UInt8]] = []
        for _ in 0..<5 {
            let (syncCentral, syncPeripheral) = SimulatedBLELink.makePair()
            let (danaLink, aliceLink) = (RecordingTransport(syncCentral), RecordingTransport(syncPeripheral))
            let aliceAgent = SyncAgent(account: meetup.account)
            let danaAgent = SyncAgent(account: danaAccount)
            async let aliceRun: SyncSessionReport? = {
                guard let link = try? await aliceAgent.accept(over: aliceLink) else { return nil }
                return await aliceAgent.run(link: link, clock: syncPeripheral)
            }()
            let danaSecure = try await danaAgent.initiate(over: danaLink)
            _ = await danaAgent.run(link: danaSecure, clock: syncCentral)
            #expect(await aliceRun != nil)
            recordedSync += [danaLink.recorded, aliceLink.recorded]
            _ = try await meetup.account.groups.process()
            _ = try await danaAccount.groups.process()
            if try await hasPost(meetup.account, "on my way"), try await hasPost(danaAccount, "the cafe at eight") { break }
        }
        for bytes in recordedSync {
            #expect(PersonaTestSupport.found(mains, in: bytes) == [], "the personas' sync names a main identity")
        }
        #expect(try await hasPost(danaAccount, "the cafe at eight"))
        #expect(try await hasPost(meetup.account, "on my way"))
        for line in try await meetup.account.feed.export() + danaAccount.feed.export() {
            #expect(PersonaTestSupport.found(mains, in: line) == [], "a persona feed entry names a main identity")
        }
        // Neither persona's store knows a main feed.
        for (home, persona) in [(homeA, meetup.persona.id), (homeD, danaPersona.id)] {
            let directory = home.personasDirectory.appendingPathComponent(persona)
            #expect(PersonaTestSupport.foundInFiles(mains, under: directory) == [])
        }

        // Alice explodes: her persona is gone at once; Dana's goes when her main account next opens after the delivery.
        try await meetup.account.groups.explode(meetup.group.id)
        let explosion = try await meetup.account.feed.export()
        try await alice.personas.delete(meetup.persona.id)
        _ = try await danaAccount.feed.importKnown(lines: explosion)
        _ = try await danaAccount.groups.process()
        #expect(try await danaAccount.groups.summary(meetup.group.id).status != .active)
        let danaAgain = try await Account.open(home: homeD, passphrase: { "p" })
        #expect(try await danaAgain.personas.all().isEmpty)
        #expect(try await alice.personas.all().isEmpty)
        let gone = PersonaTestSupport.secretNeedles(of: danaAccount) + [("group id", Array(meetup.group.id.string.utf8))]
        #expect(PersonaTestSupport.foundInFiles(gone, under: homeD.directory) == [])
    }
}
