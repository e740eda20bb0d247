import KithCanonical

/// The side that answers a pool exchange: (request) → offer → (ack) → commit.
///
/// A pure value. Storage rule (docs/TDF.md, "Interrupted exchanges"): the outcome returned with the
/// commit is stored *active* before the commit is sent: the initiator already holds this side's
/// public keys and its own private keys (stored pending when it sent the ack).
public struct PoolExchangeResponder: Sendable {
    private enum Phase: Sendable {
        case waitingForRequest
        case offered(request: PoolExchangeMessage.Request, nonce: [UInt8], pool: OneTimeKeyPool, offerDigest: [UInt8])
        case finished
    }

    /// The largest pool this side agrees to generate.
    public let maximumPoolSize: Int
    private let channelBinding: [UInt8]
    private var phase: Phase = .waitingForRequest

    /// A responder on a secure link with this handshake hash.
    public init(maximumPoolSize: Int = PoolExchangeMessage.maximumKeys, channelBinding: [UInt8]) {
        self.maximumPoolSize = min(max(1, maximumPoolSize), PoolExchangeMessage.maximumKeys)
        self.channelBinding = channelBinding
    }

    /// The exchange in progress, once a request was accepted.
    public var exchangeID: PoolExchangeID? {
        if case .offered(let request, _, _, _) = phase { return request.exchangeID }
        return nil
    }

    /// Accepts a request: generates this side's pool for the initiator and returns the offer.
    public mutating func receive(request: PoolExchangeMessage.Request) throws(PoolExchangeError) -> PoolExchangeMessage {
        guard case .waitingForRequest = phase else { throw .unexpectedMessage(.request) }
        let size = Int(request.poolSize)
        guard (1...maximumPoolSize).contains(size) else { throw .invalidPoolSize(size) }
        let pool: OneTimeKeyPool
        do { pool = try OneTimeKeyPool(size: size) } catch { throw .invalidKeys(error) }
        let nonce = PoolExchangeTranscript.randomNonce()
        phase = .offered(request: request, nonce: nonce, pool: pool, offerDigest: PoolExchangeTranscript.digest(of: pool.offer.publicKeys))
        return .offer(.init(exchangeID: request.exchangeID, initiatorNonce: request.initiatorNonce, responderNonce: nonce, publicKeys: pool.offer.publicKeys))
    }

    /// Checks the ack (exchange id, echoed nonce, digest of the offered keys, key count, keys) and
    /// returns the commit to send with the outcome to store (active) before sending it.
    public mutating func receive(ack: PoolExchangeMessage.Ack) throws(PoolExchangeError) -> (commit: PoolExchangeMessage, outcome: PoolExchangeOutcome) {
        guard case .offered(let request, let nonce, let pool, let offerDigest) = phase else { throw .unexpectedMessage(.ack) }
        guard ack.exchangeID == request.exchangeID else { throw .exchangeMismatch }
        guard ConstantTime.equals(ack.responderNonce, nonce) else { throw .nonceMismatch }
        guard ConstantTime.equals(ack.offerDigest, offerDigest) else { throw .offerDigestMismatch }
        guard ack.publicKeys.count == Int(request.poolSize) else {
            throw .keyCountMismatch(expected: Int(request.poolSize), received: ack.publicKeys.count)
        }
        let peerPool: PeerKeyPool
        do { peerPool = try PeerKeyPool(publicKeys: ack.publicKeys) } catch { throw .invalidKeys(error) }
        let transcript = PoolExchangeTranscript(
            channelBinding: channelBinding, exchangeID: request.exchangeID, initiatorNonce: request.initiatorNonce, responderNonce: nonce,
            poolSize: request.poolSize, offerDigest: offerDigest, ackDigest: PoolExchangeTranscript.digest(of: ack.publicKeys)
        )
        phase = .finished
        return (.commit(.init(exchangeID: request.exchangeID, confirmation: transcript.confirmation)),
                PoolExchangeOutcome(exchangeID: request.exchangeID, ownPool: pool, peerPool: peerPool))
    }
}
