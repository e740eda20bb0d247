import Foundation
import KithAccountFixtures
import KithCanonical
import KithFeed
import KithIdentity
import KithPush
import KithStore
import Testing
@testable import Kith

/// Push knocks through the facade (docs/PUSH-CLIENT.md): registration, hand-off in `push_tokens`, refill,
/// unlinkability, knock mapping, drops, revocation, stranger and malformed refusal, sealing at rest.
@Suite(.serialized) struct PushAccountTests {
    static let gateway = "http://127.0.0.1:8080"

    static func registration(password: String = "pw-0123456789", authToken: String = "at-0123456789abcdef") -> PushRegistrationRecord {
        PushRegistrationRecord(
            gatewayURL: gateway, pushServiceURL: gateway, accountUsername: "kith-test",
            secrets: PushRegistrationSecrets(
                accountPassword: password, authToken: authToken, deviceID: "device-1", endpoint: "http://127.0.0.1:8080/push/CAPABILITYxyz",
                subscriptionSecret: "SUBSCRIPTIONsecret123", receiverPrivateKey: Array(repeating: 0x5A, count: 32), receiverAuthSecret: Array(repeating: 0x3C, count: 16)),
            registeredAt: 1)
    }

    static func tokens(_ count: Int) -> [WhitelistToken] { (0..<count).map { _ in WhitelistToken.generate() } }

    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importVerified(lines: try await from.feed.export(), identityKey: from.identity.publicKeys.identityKey)
        try await to.direct.process()
    }

    static func pool(_ account: Account, _ peer: FeedID) async throws -> PushTokenPoolRecord? {
        try await account.push.tokenPools().first { $0.peer == peer }
    }

    @Test func registrationRoundTripsAndRefillsAreEmptyBeforeIt() async throws {
        let (alice, bob) = try await MetAccounts.met()
        #expect(try await alice.push.registration() == nil)
        #expect(try await alice.push.tokenRefills().isEmpty)
        await #expect(throws: KithError.self) { try await alice.push.handOverTokens(Self.tokens(1), to: bob.feedID, expiresAt: nil) }
        try await alice.push.saveRegistration(Self.registration())
        #expect(try await alice.push.registration() == Self.registration())
        #expect(try await alice.push.tokenRefills() == [PushTokenRefill(contact: bob.feedID, name: "Bob", count: PushTokenPolicy.refillTarget)])
    }

    @Test func tokensReachTheContactAndKnocksMapBack() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        let issued = Self.tokens(10)
        let envelopes = try await alice.push.handOverTokens(issued, to: bob.feedID, expiresAt: MetAccounts.now + 86_400)
        #expect(envelopes.count == 1 && envelopes[0].type == "push_tokens" && envelopes[0].audience == .direct(bob.feedID))
        #expect(try await Self.pool(alice, bob.feedID)?.issuedUnused == 10)
        #expect(try await alice.push.tokenRefills().isEmpty)
        try await Self.deliver(alice, to: bob)
        #expect(try await Self.pool(bob, alice.feedID)?.heldUnused == 10)

        let ticket = try #require(try await bob.push.takeToken(for: alice.feedID))
        #expect(ticket.token == issued[0])
        #expect(ticket.endpoint == "http://127.0.0.1:8080/api/v1/")
        #expect(try await bob.push.takeToken(for: alice.feedID)?.token == issued[1])
        #expect(try await Self.pool(bob, alice.feedID)?.heldUnused == 8)

        let origin = try #require(try await alice.push.knockOrigin(token: ticket.token))
        #expect(origin == PushKnockOrigin(peer: bob.feedID, wasUsedBefore: false))
        #expect(try await alice.push.knockOrigin(token: ticket.token) == PushKnockOrigin(peer: bob.feedID, wasUsedBefore: true))
        #expect(try await alice.push.knockOrigin(token: WhitelistToken.generate()) == nil)
    }

    @Test func usedTokensTriggerARefillToTheTarget() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        let issued = Self.tokens(10)
        try await alice.push.handOverTokens(issued, to: bob.feedID, expiresAt: nil)
        for token in issued.prefix(6) { _ = try await alice.push.knockOrigin(token: token) }
        #expect(try await alice.push.tokenRefills() == [PushTokenRefill(contact: bob.feedID, name: "Bob", count: 6)])
        // Spent tokens are DELETEd at the gateway (hygiene: a token knocks once).
        #expect(Set(try await alice.push.pendingRevocations()) == Set(issued.prefix(6)))
        // A large refill is split in messages of at most 20 tokens.
        let envelopes = try await alice.push.handOverTokens(Self.tokens(25), to: bob.feedID, expiresAt: nil)
        #expect(envelopes.count == 2)
        try await Self.deliver(alice, to: bob)
        #expect(try await Self.pool(bob, alice.feedID)?.heldUnused == 35)
    }

    @Test func eachContactGetsItsOwnTokens() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let carol = try MetAccounts.account(0xC0)
        try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await alice.push.saveRegistration(Self.registration())
        let refills = try await alice.push.tokenRefills()
        #expect(Set(refills.map(\.contact)) == [bob.feedID, carol.feedID])
        let forBob = Self.tokens(10), forCarol = Self.tokens(10)
        try await alice.push.handOverTokens(forBob, to: bob.feedID, expiresAt: nil)
        try await alice.push.handOverTokens(forCarol, to: carol.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(alice, to: carol)
        var bobHeld: Set<WhitelistToken> = [], carolHeld: Set<WhitelistToken> = []
        while let ticket = try await bob.push.takeToken(for: alice.feedID) { bobHeld.insert(ticket.token) }
        while let ticket = try await carol.push.takeToken(for: alice.feedID) { carolHeld.insert(ticket.token) }
        #expect(bobHeld == Set(forBob) && carolHeld == Set(forCarol) && bobHeld.isDisjoint(with: carolHeld))
        // Knocks are told apart by token alone.
        #expect(try await alice.push.knockOrigin(token: forCarol[3])?.peer == carol.feedID)
        #expect(try await alice.push.knockOrigin(token: forBob[7])?.peer == bob.feedID)
        // Handing Bob's tokens to Carol as well is refused: they are recorded for Bob.
        await #expect(throws: KithError.self) { try await alice.push.handOverTokens([forBob[1]], to: carol.feedID, expiresAt: nil) }
        #expect(try await alice.push.knockOrigin(token: forBob[1])?.peer == bob.feedID)
    }

    @Test func deadAndExpiredTokensAreSkipped() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        let issued = Self.tokens(3)
        try await alice.push.handOverTokens(issued, to: bob.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        let first = try #require(try await bob.push.takeToken(for: alice.feedID))
        try await bob.push.dropToken(first.token, from: alice.feedID)
        #expect(try await Self.pool(bob, alice.feedID)?.heldSpent == 1)
        #expect(try await bob.push.takeToken(for: alice.feedID)?.token == issued[1])

        let (carol, dave) = (try MetAccounts.account(0xC1), try MetAccounts.account(0xD1))
        try await dave.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await carol.contacts.add(cardText: try await dave.contacts.card(displayName: "Dave").text, name: "Dave")
        try await carol.push.saveRegistration(Self.registration())
        try await carol.push.handOverTokens(Self.tokens(2), to: dave.feedID, expiresAt: MetAccounts.now - 1)
        try await Self.deliver(carol, to: dave)
        #expect(try await dave.push.takeToken(for: carol.feedID) == nil)
        #expect(try await Self.pool(dave, carol.feedID)?.heldSpent == 2)
    }

    @Test func aNewEndpointReplacesTheUnusedTokens() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        try await alice.push.handOverTokens(Self.tokens(4), to: bob.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        var moved = Self.registration()
        moved.gatewayURL = "https://push.example/"
        try await alice.push.saveRegistration(moved)
        let fresh = Self.tokens(2)
        try await alice.push.handOverTokens(fresh, to: bob.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        #expect(try await Self.pool(bob, alice.feedID)?.heldUnused == 2)
        let ticket = try #require(try await bob.push.takeToken(for: alice.feedID))
        #expect(ticket.token == fresh[0] && ticket.endpoint == "https://push.example/api/v1/")
    }

    @Test func removingAContactQueuesItsTokensForRevocation() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        let issued = Self.tokens(5)
        try await alice.push.handOverTokens(issued, to: bob.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        try await bob.contacts.remove(alice.feedID)
        #expect(try await Self.pool(bob, alice.feedID) == nil)   // the tokens Alice gave are forgotten
        try await alice.contacts.remove(bob.feedID)
        #expect(Set(try await alice.push.pendingRevocations()) == Set(issued))
        #expect(try await alice.push.knockOrigin(token: issued[0]) == PushKnockOrigin(peer: nil, wasUsedBefore: true))
        try await alice.push.confirmRevocations(Array(issued.prefix(2)))
        #expect(try await alice.push.pendingRevocations().count == 3)
        #expect(try await alice.push.knockOrigin(token: issued[0]) == nil)
    }

    @Test func revokingAContactsTokensWithoutRemovingIt() async throws {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.push.saveRegistration(Self.registration())
        try await alice.push.handOverTokens(Self.tokens(5), to: bob.feedID, expiresAt: nil)
        try await alice.push.revokeTokens(of: bob.feedID)
        #expect(try await alice.push.pendingRevocations().count == 5)
        #expect(try await alice.push.tokenRefills().first?.count == PushTokenPolicy.refillTarget)
    }

    @Test func aStrangersTokensAreNeverAccepted() async throws {
        let bob = try MetAccounts.account(0xB0)
        let mallory = try MetAccounts.account(0x66)
        // Mallory holds Bob's card (so she can encrypt to him); Bob never added her.
        try await mallory.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await mallory.push.saveRegistration(Self.registration())
        try await mallory.push.handOverTokens(Self.tokens(3), to: bob.feedID, expiresAt: nil)
        _ = try await bob.feed.importVerified(lines: try await mallory.feed.export(), identityKey: mallory.identity.publicKeys.identityKey)
        let report = try await bob.direct.process()
        #expect(report.opened.isEmpty)
        #expect(try await bob.push.tokenPools().isEmpty)
    }

    @Test func malformedTokensFromAContactChangeNothing() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let bad = #"{"endpoint":"https://p.example/api/v1/","tokens":["NOT-HEX"],"type":"push_tokens"}"#
        _ = try await BlockingWork.run { () throws(KithError) in
            try alice.sendDirectBlocking(plaintext: Array(bad.utf8), type: "push_tokens", to: bob.feedID)
        }
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.push.tokenPools().isEmpty)
        #expect(try await bob.push.takeToken(for: alice.feedID) == nil)
    }

    @Test func pushTokensAreDirectOnly() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let content = Content.pushTokens(PushTokens(endpoint: "https://p.example/api/v1/", tokens: [WhitelistToken.generate().hex]))
        for audience in [Audience.contacts, .selfOnly] {
            await #expect(throws: KithError.self) { try await alice.publishing.publish(content, audience: audience) }
        }
        #expect(try await bob.push.tokenPools().isEmpty)
    }

    @Test func secretsAndTokensAreSealedAtRest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-push-\(UUID().uuidString)")
        let aliceHome = AccountHome(directory: directory.appendingPathComponent("alice"))
        let bobHome = AccountHome(directory: directory.appendingPathComponent("bob"))
        let alice = try await Account.create(home: aliceHome, scrypt: .testing, passphrase: { "p" })
        let bob = try await Account.create(home: bobHome, scrypt: .testing, passphrase: { "p" })
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        let record = Self.registration(password: "PASSWORD-must-not-leak", authToken: "AUTHTOKEN-must-not-leak")
        try await alice.push.saveRegistration(record)
        let issued = Self.tokens(5)
        try await alice.push.handOverTokens(issued, to: bob.feedID, expiresAt: nil)
        try await Self.deliver(alice, to: bob)
        #expect(try await Self.pool(bob, alice.feedID)?.heldUnused == 5)

        var needles: [[UInt8]] = [Array("PASSWORD-must-not-leak".utf8), Array("AUTHTOKEN-must-not-leak".utf8), Array("SUBSCRIPTIONsecret123".utf8),
                                  Array("CAPABILITYxyz".utf8), record.secrets.receiverPrivateKey, Array(Base64URL.encode(record.secrets.receiverPrivateKey).utf8),
                                  Array(Base64URL.encode(record.secrets.receiverAuthSecret).utf8)]
        for token in issued { needles += [token.bytes, Array(token.hex.utf8), token.storageDigest] }
        for home in [aliceHome, bobHome] {
            for file in try FileManager.default.contentsOfDirectory(at: home.directory, includingPropertiesForKeys: nil)
            where file.lastPathComponent.hasPrefix("kith.sqlite") {
                let data = try Data(contentsOf: file)
                for needle in needles { #expect(data.range(of: Data(needle)) == nil, "\(file.lastPathComponent) holds a secret") }
            }
        }
        // The sealed registration survives reopening.
        let reopened = try await Account.open(home: aliceHome, passphrase: { "p" })
        #expect(try await reopened.push.registration() == record)
    }
}
