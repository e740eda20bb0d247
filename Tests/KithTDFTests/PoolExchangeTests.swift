import KithCanonical
import Testing
@testable import KithTDF

/// The request/offer/ack/commit handshake as pure values: nonces, digests and the confirmation are checked.
@Suite struct PoolExchangeTests {
    let binding = [UInt8](repeating: 0xAB, count: 32)

    /// Runs every message through the codec, as the link would.
    func wire(_ message: PoolExchangeMessage) throws -> PoolExchangeMessage {
        try PoolExchangeMessage(decoding: message.encoded())
    }

    @Test func aCompleteExchangeGivesEachSideTheOthersPool() throws {
        var initiator = try PoolExchangeInitiator(poolSize: 32, channelBinding: binding)
        var responder = PoolExchangeResponder(channelBinding: binding)
        guard case .request(let request) = try wire(initiator.request) else { Issue.record("not a request"); return }
        guard case .offer(let offer) = try wire(try responder.receive(request: request)) else { Issue.record("not an offer"); return }
        let (ackMessage, pending) = try initiator.receive(offer: offer)
        guard case .ack(let ack) = try wire(ackMessage) else { Issue.record("not an ack"); return }
        let (commitMessage, outcome) = try responder.receive(ack: ack)
        guard case .commit(let commit) = try wire(commitMessage) else { Issue.record("not a commit"); return }
        try initiator.receive(commit: commit)
        #expect(initiator.isFinished)
        #expect(pending.exchangeID == outcome.exchangeID)
        #expect(pending.peerPool.publicKeys == outcome.ownPool.offer.publicKeys)
        #expect(outcome.peerPool.publicKeys == pending.ownPool.offer.publicKeys)
        #expect(pending.ownPool.exportedPrivateKeys.count == 32)
        // A message each way decrypts with the other side's private pool.
        var toResponder = pending.peerPool
        var responderPool = outcome.ownPool
        let nano = try toResponder.encrypt(Array("hello".utf8), kasBody: "a", policy: .plaintext([1]))
        #expect(try responderPool.open(nano) == Array("hello".utf8))
    }

    @Test func anOfferWithAnotherNonceOrExchangeIsRefused() throws {
        var initiator = try PoolExchangeInitiator(poolSize: 4, channelBinding: binding)
        var responder = PoolExchangeResponder(channelBinding: binding)
        guard case .request(let request) = initiator.request,
              case .offer(let offer) = try responder.receive(request: request) else { Issue.record("setup"); return }
        let wrongNonce = PoolExchangeMessage.Offer(
            exchangeID: offer.exchangeID, initiatorNonce: [UInt8](repeating: 0, count: 32), responderNonce: offer.responderNonce, publicKeys: offer.publicKeys)
        #expect(throws: PoolExchangeError.nonceMismatch) { try initiator.receive(offer: wrongNonce) }
        let wrongExchange = PoolExchangeMessage.Offer(
            exchangeID: .random(), initiatorNonce: offer.initiatorNonce, responderNonce: offer.responderNonce, publicKeys: offer.publicKeys)
        #expect(throws: PoolExchangeError.exchangeMismatch) { try initiator.receive(offer: wrongExchange) }
        let short = PoolExchangeMessage.Offer(
            exchangeID: offer.exchangeID, initiatorNonce: offer.initiatorNonce, responderNonce: offer.responderNonce, publicKeys: Array(offer.publicKeys.prefix(3)))
        #expect(throws: PoolExchangeError.keyCountMismatch(expected: 4, received: 3)) { try initiator.receive(offer: short) }
        let bad = PoolExchangeMessage.Offer(
            exchangeID: offer.exchangeID, initiatorNonce: offer.initiatorNonce, responderNonce: offer.responderNonce,
            publicKeys: [offer.publicKeys[0], offer.publicKeys[0], offer.publicKeys[1], offer.publicKeys[2]])
        #expect(throws: PoolExchangeError.invalidKeys(.invalidOffer(reason: "duplicate key"))) { try initiator.receive(offer: bad) }
        // The genuine offer is still accepted after the refusals.
        _ = try initiator.receive(offer: offer)
    }

    @Test func anAckWithAnotherNonceOrDigestIsRefused() throws {
        var initiator = try PoolExchangeInitiator(poolSize: 4, channelBinding: binding)
        var responder = PoolExchangeResponder(channelBinding: binding)
        guard case .request(let request) = initiator.request,
              case .offer(let offer) = try responder.receive(request: request),
              case .ack(let ack) = try initiator.receive(offer: offer).ack else { Issue.record("setup"); return }
        let wrongNonce = PoolExchangeMessage.Ack(
            exchangeID: ack.exchangeID, responderNonce: [UInt8](repeating: 1, count: 32), offerDigest: ack.offerDigest, publicKeys: ack.publicKeys)
        #expect(throws: PoolExchangeError.nonceMismatch) { try responder.receive(ack: wrongNonce) }
        let wrongDigest = PoolExchangeMessage.Ack(
            exchangeID: ack.exchangeID, responderNonce: ack.responderNonce, offerDigest: [UInt8](repeating: 2, count: 32), publicKeys: ack.publicKeys)
        #expect(throws: PoolExchangeError.offerDigestMismatch) { try responder.receive(ack: wrongDigest) }
        _ = try responder.receive(ack: ack)
        #expect(throws: PoolExchangeError.unexpectedMessage(.ack)) { try responder.receive(ack: ack) }
    }

    @Test func aCommitFromAnotherLinkOrTranscriptIsRefused() throws {
        var initiator = try PoolExchangeInitiator(poolSize: 2, channelBinding: binding)
        // The responder sits on another link (another handshake hash): its confirmation cannot match.
        var responder = PoolExchangeResponder(channelBinding: [UInt8](repeating: 0xCD, count: 32))
        guard case .request(let request) = initiator.request,
              case .offer(let offer) = try responder.receive(request: request),
              case .ack(let ack) = try initiator.receive(offer: offer).ack,
              case .commit(let commit) = try responder.receive(ack: ack).commit else { Issue.record("setup"); return }
        #expect(throws: PoolExchangeError.confirmationMismatch) { try initiator.receive(commit: commit) }
        #expect(!initiator.isFinished)
        #expect(throws: PoolExchangeError.exchangeMismatch) {
            try initiator.receive(commit: .init(exchangeID: .random(), confirmation: commit.confirmation))
        }
    }

    @Test func messagesOutOfOrderAreRefused() throws {
        var initiator = try PoolExchangeInitiator(poolSize: 2, channelBinding: binding)
        #expect(throws: PoolExchangeError.unexpectedMessage(.commit)) {
            try initiator.receive(commit: .init(exchangeID: initiator.exchangeID, confirmation: [UInt8](repeating: 0, count: 32)))
        }
        var responder = PoolExchangeResponder(maximumPoolSize: 8, channelBinding: binding)
        #expect(throws: PoolExchangeError.unexpectedMessage(.ack)) {
            try responder.receive(ack: .init(exchangeID: .random(), responderNonce: [], offerDigest: [], publicKeys: []))
        }
        #expect(throws: PoolExchangeError.invalidPoolSize(9)) {
            try responder.receive(request: .init(exchangeID: .random(), initiatorNonce: [UInt8](repeating: 0, count: 32), poolSize: 9))
        }
        #expect(throws: PoolExchangeError.invalidPoolSize(0)) { try PoolExchangeInitiator(poolSize: 0, channelBinding: binding) }
    }

    @Test func theCodecIsBoundedAndStrict() throws {
        let id = PoolExchangeID.random()
        let revoke = PoolExchangeMessage.revoke(exchangeID: id)
        #expect(try PoolExchangeMessage(decoding: revoke.encoded()) == revoke)
        #expect(throws: PoolExchangeError.malformed(.trailingBytes(count: 1, offset: 18))) { try PoolExchangeMessage(decoding: revoke.encoded() + [0]) }
        #expect(throws: PoolExchangeError.unsupportedVersion(2)) { try PoolExchangeMessage(decoding: [2, 5] + id.bytes) }
        #expect(throws: PoolExchangeError.unknownMessageKind(9)) { try PoolExchangeMessage(decoding: [1, 9] + id.bytes) }
        #expect(throws: PoolExchangeError.self) { try PoolExchangeMessage(decoding: [1, 1] + id.bytes.prefix(4)) }
        // A key count far beyond the bytes present is refused before anything is allocated.
        var offer = [1, 2] + id.bytes + [UInt8](repeating: 7, count: 64)
        offer += [0x00, 0x01, 0x00, 0x00]
        #expect(throws: PoolExchangeError.malformed(.truncated(needed: 65_536 * 33, available: 0, offset: offer.count))) { try PoolExchangeMessage(decoding: offer) }
        var huge = [1, 2] + id.bytes + [UInt8](repeating: 7, count: 64)
        huge += [0x00, 0x01, 0x00, 0x01]
        #expect(throws: PoolExchangeError.invalidPoolSize(65_537)) { try PoolExchangeMessage(decoding: huge) }
        var request = [1, 1] + id.bytes + [UInt8](repeating: 7, count: 32)
        request += [0, 0, 0, 0]
        #expect(throws: PoolExchangeError.invalidPoolSize(0)) { try PoolExchangeMessage(decoding: request) }
    }
}
