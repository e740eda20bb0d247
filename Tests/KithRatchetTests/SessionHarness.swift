import KithRatchet

/// Two parties with established sessions and per-feed sequence counters.
struct SessionPair {
    let alice: TestParty
    let bob: TestParty
    var aliceSession: RatchetSession
    var bobSession: RatchetSession?
    var aliceSequence: UInt64 = 1
    var bobSequence: UInt64 = 1
    let prekeys = InMemoryPrekeyStore()
    let configuration: RatchetConfiguration

    /// Alice initiates (optionally with a one-time prekey from Bob's pool); Bob has no session yet.
    init(configuration: RatchetConfiguration = RatchetConfiguration(), useOneTimePrekey: Bool = true) throws {
        self.configuration = configuration
        alice = try Fixtures.alice()
        bob = try Fixtures.bob()
        var batch = try prekeys.generateOneTimePrekeys(count: 10, forPeer: alice.feed)
        let oneTime = useOneTimePrekey ? batch.takeFirst() : nil
        aliceSession = try RatchetSession.initiate(
            local: alice.keys, bundle: try bob.bundle(oneTimePrekey: oneTime), configuration: configuration
        )
    }

    /// A message on the wire together with the envelope context it belongs to.
    struct Sent {
        var wire: [UInt8]
        var context: DirectMessageContext
        var plaintext: [UInt8]
    }

    mutating func aliceSends(_ text: String) throws -> Sent {
        let context = try alice.context(to: bob, sequence: aliceSequence)
        aliceSequence += 1
        let (wire, next) = try aliceSession.encrypt(Array(text.utf8), context: context)
        aliceSession = next
        return Sent(wire: wire, context: context, plaintext: Array(text.utf8))
    }

    mutating func bobSends(_ text: String) throws -> Sent {
        guard let session = bobSession else { throw RatchetError.noSendingChain }
        let context = try bob.context(to: alice, sequence: bobSequence)
        bobSequence += 1
        let (wire, next) = try session.encrypt(Array(text.utf8), context: context)
        bobSession = next
        return Sent(wire: wire, context: context, plaintext: Array(text.utf8))
    }

    /// Bob receives: responds to a prekey message when he has no session, else decrypts.
    @discardableResult
    mutating func bobReceives(_ sent: Sent, now: UInt64 = Fixtures.now) throws -> [UInt8] {
        if let session = bobSession {
            let (plaintext, next) = try session.decrypt(sent.wire, context: sent.context, local: bob.keys, now: now)
            bobSession = next
            return plaintext
        }
        let (session, plaintext) = try RatchetSession.respond(
            local: bob.keys, peer: try alice.peer, prekeys: prekeys, wire: sent.wire, context: sent.context,
            configuration: configuration, now: now
        )
        bobSession = session
        return plaintext
    }

    @discardableResult
    mutating func aliceReceives(_ sent: Sent, now: UInt64 = Fixtures.now) throws -> [UInt8] {
        let (plaintext, next) = try aliceSession.decrypt(sent.wire, context: sent.context, local: alice.keys, now: now)
        aliceSession = next
        return plaintext
    }
}
