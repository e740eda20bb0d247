import Foundation
import Kith
import KithCanonical
@testable import KithDemo
import KithIdentity
import KithInvites
import KithRendezvous
import KithServer
import KithStore
import KithTestSupport
import Testing

/// Issue 27, item 5, for what a `kith serve` sees of personas: every byte a main account and its personas send to
/// (and get from) the server when they register for push knocks, and every byte of a persona's stranger-invite
/// exchange and group sync through the blind relay (REST bodies, signaling JSON, relay frames, read off a recording
/// proxy between the clients and the server), holds none of the main identity's keys or feed id, in any encoding,
/// and none of another persona's.
@Suite(.serialized) struct PersonaServerTrafficTests {
    @Test func pushRegistrationsOfAMainAccountAndTwoPersonasNameNoIdentity() async throws {
        let home = Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let first = try await main.personas.createGroup(name: "meetup")
        let second = try await main.personas.create()
        let accounts: [(String, Account)] = [("main", main), ("persona 1", first.account), ("persona 2", second.account)]
        let every = accounts.flatMap { Self.needles(of: $0.1.identity, named: $0.0) }
        try await DemoPushTests.server().serving { url in
            let proxy = try await RecordingProxy.start(to: try Self.port(of: url))
            defer { proxy.stop() }
            for (name, account) in accounts {
                _ = proxy.take()
                let record = try await PushFlows.register(account, gatewayURL: proxy.url)
                _ = try await PushFlows.refill(account)
                let stored = try #require(try await account.push.registration())
                #expect(stored == record)
                let traffic = proxy.take()
                #expect(traffic.contains { Self.contains($0, Array(record.accountUsername.utf8)) }, "the registration went through the proxy")
                let emitted = traffic + [Self.bytes(of: record)]
                // An anonymous gateway account: no identity at all, its own included.
                for bytes in emitted {
                    #expect(Self.found(every, in: bytes) == [], "\(name)'s push registration names an identity")
                }
            }
        }
    }

    /// Alice's persona answers Dana's persona (Dana never met Alice) through the relay with a claimed join code,
    /// then the two personas sync as group peers through it; Alice has a second persona. The server sees nothing of
    /// either main identity nor of Alice's other persona.
    @Test func aPersonaStrangerJoinAndSyncThroughTheRelayNameNoMainIdentity() async throws {
        let (homeA, homeD) = (Self.temporaryHome(), Self.temporaryHome())
        defer { for home in [homeA, homeD] { try? FileManager.default.removeItem(at: home.directory) } }
        let alice = try await Account.create(home: homeA, scrypt: .testing, passphrase: { "p" })
        let dana = try await Account.create(home: homeD, scrypt: .testing, passphrase: { "p" })
        let meetup = try await alice.personas.createGroup(name: "meetup")
        let hike = try await alice.personas.createGroup(name: "hike")
        let (_, danaPersona) = try await dana.personas.create()
        let forbidden = Self.needles(of: alice.identity, named: "alice main") + Self.needles(of: dana.identity, named: "dana main")
            + Self.needles(of: hike.account.identity, named: "alice's other persona")
        let server = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0), store: try SQLiteRendezvousStore.open(path: nil))
        try await server.serving { url in
            let proxy = try await RecordingProxy.start(to: try Self.port(of: url))
            defer { proxy.stop() }
            let nonce = (0..<JoinCodeClaim.nonceBytes).map { _ in UInt8.random(in: .min ... .max) }
            let secret = meetup.account.invites.joinCodeClaimSecret(nonce: nonce)
            let code = try #require(JoinCodeClaim.code(nonce: nonce, secret: secret))
            let made = try await meetup.account.invites.create(
                group: meetup.group.id, singleUse: true, relay: InviteRelay(server: proxy.url, joinCode: code.text))
            let invite = try await danaPersona.invites.prepareStrangerJoin(made.url)
            _ = proxy.take()
            let exchange = try await Demo.relayExchange(
                creator: meetup.account, joiner: danaPersona, invite: invite, serverURL: proxy.url, claim: JoinCodeClaim.claim(of: secret))
            #expect(exchange.joiner == .joined(meetup.group.id))
            let joinTraffic = proxy.take()

            try await meetup.account.groups.send(meetup.group.id, text: "the cafe at eight")
            let synced = try await Demo.relaySync(meetup.account, danaPersona, code: JoinCode.randomDigits(count: 8), serverURL: proxy.url)
            #expect(synced.first.completed && synced.second.completed)
            let syncTraffic = proxy.take()
            #expect(try await danaPersona.groups.messages(meetup.group.id).contains {
                if case .post(let post)? = $0.content { post.body == "the cafe at eight" } else { false }
            })
            #expect(server.relayStatistics.bytesRelayed > 0)
            #expect(joinTraffic.contains { Self.contains($0, Array(code.text.utf8)) }, "the exchange went through the proxy")
            // The clients' signaling JSON, unmasked, is among what is checked.
            #expect(joinTraffic.contains { RecordingProxy.unmaskedWebSocketPayloads($0).map { Self.contains($0, Array("\"type\"".utf8)) } == true })
            for bytes in joinTraffic { #expect(Self.found(forbidden, in: bytes) == [], "the relayed invite exchange names a main identity or another persona") }
            for bytes in syncTraffic { #expect(Self.found(forbidden, in: bytes) == [], "the relayed persona sync names a main identity or another persona") }
        }
    }

    // MARK: Support

    static func temporaryHome() -> AccountHome {
        AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-persona-server-\(UUID().uuidString)"))
    }

    static func port(of url: String) throws -> Int {
        try #require(URL(string: url)?.port)
    }

    /// Every field of a push registration, as bytes.
    static func bytes(of record: PushRegistrationRecord) -> [UInt8] {
        let secrets = record.secrets
        let text = [record.gatewayURL, record.pushServiceURL, record.accountUsername, secrets.accountPassword, secrets.authToken,
                    secrets.deviceID, secrets.endpoint, secrets.subscriptionSecret].joined(separator: "\n")
        return Array(text.utf8) + secrets.receiverPrivateKey + secrets.receiverAuthSecret
    }

    /// The identity's feed id (text) and feed id, identity, dh and pq public keys in every encoding of `ByteNeedles`.
    static func needles(of identity: Identity, named owner: String) -> [(String, [UInt8])] {
        let keys = identity.publicKeys
        let raw: [(String, [UInt8])] = [
            ("feed id", identity.feedID.rawBytes),
            ("identity key", Array(keys.identityKey.rawRepresentation)),
            ("dh key", Array(keys.dhKey.rawRepresentation)),
            ("pq key prefix", Array(Array(keys.pqKey.rawRepresentation).prefix(48))),
        ]
        return [("\(owner) feed id text", Array(identity.feedID.string.utf8))] + raw.flatMap { ByteNeedles.encodings("\(owner) \($0.0)", $0.1) }
    }

    static func found(_ needles: [(String, [UInt8])], in haystack: [UInt8]) -> [String] { ByteNeedles.found(needles, in: haystack) }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { ByteNeedles.contains(haystack, needle) }
}
