@testable import Kith
import KithAccountFixtures
import KithInvites
import Testing

/// Reading an invite needs no identity: `kith invite show` in a home without one.
@Suite("Invite inspection without an identity")
struct InviteInspectionTests {
    @Test("an invite read without an identity shows the same fields, signer and expiry as with one, its signer not compared")
    func withoutIdentity() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "trip")
        let made = try await alice.invites.create(group: group.id, expiresIn: 3_600, name: "Trip", emoji: "🧗")
        for link in [made.url, made.convosURL, made.code] {
            let bare = try InviteInspection.inspect(link, now: 1_700_000_000)
            let withIdentity = try await bob.invites.inspect(link)
            #expect(bare.invite == withIdentity.invite && bare.signer == withIdentity.signer && bare.form == withIdentity.form)
            #expect(bare.signerCheck == .notCompared && !bare.isAuthenticated)
            #expect(withIdentity.signerCheck == .knownContact(alice.feedID))
            #expect(!bare.inviteExpired)
        }
        #expect(try InviteInspection.inspect(made.url, now: Int64.max / 2).inviteExpired)
    }

    @Test("what does not decode is refused with the invite error, as with an identity")
    func refusals() {
        for text in ["kith://invite/", "https://example.org/nothing", "not-a-code!"] {
            #expect(throws: KithError.self) { try InviteInspection.inspect(text, now: 0) }
        }
    }
}
