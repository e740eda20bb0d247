import Crypto
import KithRatchet
import Testing

/// Direct sessions across key rotations (docs/FEED-FORMAT.md 12.4.4 and 13): a new sending chain
/// encapsulates to the contact's pq key current when its first message is sent, and a recipient
/// opens messages written to its retired generations.
@Suite struct RotatedKeyGenerationsTests {
    /// One side: its key generations (newest first), stores, and the keys it knows of the other.
    struct Side {
        let feedID: String
        let name: String
        var generations: [LocalIdentityKeys]
        /// How many retired generations the session layer is given.
        var keptRetired: Int
        let sessions = InMemorySessionStore()
        let prekeys = InMemoryPrekeyStore()
        let peerPrekeys = InMemoryPeerPrekeyStore()
        var sequence: UInt64 = 0

        init(_ party: TestParty, name: String, keptRetired: Int = 3) {
            feedID = party.feedID
            self.name = name
            generations = [party.keys]
            self.keptRetired = keptRetired
        }

        var layer: DirectSessions {
            get throws { try DirectSessions(local: generations[0], retired: Array(generations.dropFirst().prefix(keptRetired))) }
        }

        /// A fresh generation with the same feed id (keys from the name and the generation number).
        mutating func rotate() throws {
            let label = "\(name) generation \(generations.count)"
            let keys = try LocalIdentityKeys(
                identityKey: try Curve25519.Signing.PrivateKey(rawRepresentation: Array(SHA256.hash(data: Array("\(label) identity".utf8)))),
                dhKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Array(SHA256.hash(data: Array("\(label) dh".utf8)))),
                pqKey: try MLKEM768.PrivateKey(seedRepresentation: Array(SHA512.hash(data: Array("\(label) pq".utf8))), publicKey: nil),
                feedID: feedID
            )
            generations.insert(keys, at: 0)
        }

        /// Sends to `other`, knowing `other`'s keys of `known` (the generation last seen).
        mutating func send(_ text: String, to other: Side, known: LocalIdentityKeys) throws -> (wire: [UInt8], context: DirectMessageContext) {
            sequence += 1
            let context = try DirectMessageContext.direct(from: feedID, to: other.feedID, sequence: sequence)
            let wire = try layer.encrypt(
                Array(text.utf8), to: try known.peerIdentity, signedPrekey: Array(known.dhKey.publicKey.rawRepresentation),
                context: context, sessions: sessions, peerPrekeys: peerPrekeys
            )
            return (wire, context)
        }

        /// Opens a message from `other`, whose keys of `known` this side has seen.
        func open(_ message: (wire: [UInt8], context: DirectMessageContext), from other: Side, known: LocalIdentityKeys) throws -> String {
            let plaintext = try layer.open(
                message.wire, context: message.context, from: try known.peerIdentity, sessions: sessions, prekeys: prekeys, now: Fixtures.now
            )
            return String(decoding: plaintext, as: UTF8.self)
        }
    }

    /// The crash harness's case at the ratchet layer: Bob's reply chain is derived after Alice
    /// rotated twice, so it encapsulates to her newest key; she needs no retired key for it.
    @Test func aReplyChainEncapsulatesToTheKeyCurrentWhenItIsSent() throws {
        var alice = Side(try Fixtures.alice(), name: "alice", keptRetired: 0)
        var bob = Side(try Fixtures.bob(), name: "bob")
        let first = try alice.send("before", to: bob, known: bob.generations[0])
        #expect(try bob.open(first, from: alice, known: alice.generations[0]) == "before")
        try alice.rotate()
        try alice.rotate()
        let reply = try bob.send("after two rotations", to: alice, known: alice.generations[0])
        #expect(try alice.open(reply, from: bob, known: bob.generations[0]) == "after two rotations")
        let back = try alice.send("and back", to: bob, known: bob.generations[0])
        #expect(try bob.open(back, from: alice, known: alice.generations[0]) == "and back")
    }

    /// A chain Alice started before Bob rotated (encapsulated to his first pq key) opens after
    /// three rotations, and so does a prekey message to his first dh and pq keys.
    @Test func messagesInFlightToARetiredGenerationOpen() throws {
        var alice = Side(try Fixtures.alice(), name: "alice")
        var bob = Side(try Fixtures.bob(), name: "bob")
        let bobFirst = bob.generations[0]
        let initiation = try alice.send("prekey message", to: bob, known: bobFirst)
        for _ in 0..<3 { try bob.rotate() }
        #expect(try bob.open(initiation, from: alice, known: alice.generations[0]) == "prekey message")
        let reply = try bob.send("reply", to: alice, known: alice.generations[0])
        #expect(try alice.open(reply, from: bob, known: bobFirst) == "reply")
        // Alice has not seen Bob's rotations: her new chain encapsulates to his first pq key.
        let inFlight = try alice.send("new chain to your first key", to: bob, known: bobFirst)
        let sameChain = try alice.send("same chain", to: bob, known: bobFirst)
        #expect(try bob.open(inFlight, from: alice, known: alice.generations[0]) == "new chain to your first key")
        #expect(try bob.open(sameChain, from: alice, known: alice.generations[0]) == "same chain")
    }

    /// The bound: a generation beyond the kept retired ones no longer opens what was written to it,
    /// and the failure leaves the session untouched.
    @Test func aGenerationBeyondTheKeptOnesDoesNotOpen() throws {
        var alice = Side(try Fixtures.alice(), name: "alice")
        var bob = Side(try Fixtures.bob(), name: "bob")
        let bobFirst = bob.generations[0]
        #expect(try bob.open(try alice.send("hello", to: bob, known: bobFirst), from: alice, known: alice.generations[0]) == "hello")
        #expect(try alice.open(try bob.send("hi", to: alice, known: alice.generations[0]), from: bob, known: bobFirst) == "hi")
        let stored = try bob.sessions.sessionRecord(with: alice.generations[0].feed)
        let lost = try alice.send("to a key four rotations old", to: bob, known: bobFirst)
        for _ in 0..<4 { try bob.rotate() }
        #expect(throws: RatchetError.self) { try bob.open(lost, from: alice, known: alice.generations[0]) }
        #expect(try bob.sessions.sessionRecord(with: alice.generations[0].feed) == stored)
    }
}
