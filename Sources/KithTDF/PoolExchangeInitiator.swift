import KithCanonical

/// The side that starts a pool exchange (`kith circle add` armed it): request → (offer) → ack → (commit).
///
/// A pure value: the caller sends what it returns and stores what it hands back. Storage rule
/// (docs/TDF.md, "Interrupted exchanges"): the outcome returned with the ack is stored as
/// *pending* (this side may receive with it but not send), and becomes active on the commit.
public struct PoolExchangeInitiator: Sendable {
    private enum Phase: Sendable {
        case requested
        case acknowledged(transcript: PoolExchangeTranscript)
        case finished
    }

    /// The exchange in progress.
    public let exchangeID: PoolExchangeID
    /// How many keys each side generates.
    public let poolSize: Int
    private let channelBinding: [UInt8]
    private let nonce: [UInt8]
    private var phase: Phase = .requested

    /// Starts an exchange bound to the secure link's handshake hash.
    /// - Throws: ``PoolExchangeError/invalidPoolSize(_:)`` outside 1...``PoolExchangeMessage/maximumKeys``;
    ///   ``PoolExchangeError/channelBindingTooLong(_:)`` for a binding over 65,535 bytes.
    public init(poolSize: Int = OneTimeKeyPool.defaultSize, channelBinding: [UInt8]) throws(PoolExchangeError) {
        guard (1...PoolExchangeMessage.maximumKeys).contains(poolSize) else { throw .invalidPoolSize(poolSize) }
        guard channelBinding.count <= Int(UInt16.max) else { throw .channelBindingTooLong(channelBinding.count) }
        self.exchangeID = .random()
        self.poolSize = poolSize
        self.channelBinding = channelBinding
        self.nonce = PoolExchangeTranscript.randomNonce()
    }

    /// The request to send first.
    public var request: PoolExchangeMessage {
        .request(.init(exchangeID: exchangeID, initiatorNonce: nonce, poolSize: UInt32(poolSize)))
    }

    /// Checks the offer (exchange id, echoed nonce, key count, keys), generates this side's pool and
    /// returns the ack to send with the outcome to store as pending.
    public mutating func receive(offer: PoolExchangeMessage.Offer) throws(PoolExchangeError) -> (ack: PoolExchangeMessage, pending: PoolExchangeOutcome) {
        guard case .requested = phase else { throw .unexpectedMessage(.offer) }
        guard offer.exchangeID == exchangeID else { throw .exchangeMismatch }
        guard ConstantTime.equals(offer.initiatorNonce, nonce) else { throw .nonceMismatch }
        guard offer.publicKeys.count == poolSize else { throw .keyCountMismatch(expected: poolSize, received: offer.publicKeys.count) }
        let peerPool: PeerKeyPool
        do { peerPool = try PeerKeyPool(publicKeys: offer.publicKeys) } catch { throw .invalidKeys(error) }
        let ownPool: OneTimeKeyPool
        do { ownPool = try OneTimeKeyPool(size: poolSize) } catch { throw .invalidKeys(error) }
        let offerDigest = PoolExchangeTranscript.digest(of: offer.publicKeys)
        let transcript = PoolExchangeTranscript(
            channelBinding: channelBinding, exchangeID: exchangeID, initiatorNonce: nonce, responderNonce: offer.responderNonce,
            poolSize: UInt32(poolSize), offerDigest: offerDigest, ackDigest: PoolExchangeTranscript.digest(of: ownPool.offer.publicKeys)
        )
        phase = .acknowledged(transcript: transcript)
        let ack = PoolExchangeMessage.ack(.init(
            exchangeID: exchangeID, responderNonce: offer.responderNonce, offerDigest: offerDigest, publicKeys: ownPool.offer.publicKeys
        ))
        return (ack, PoolExchangeOutcome(exchangeID: exchangeID, ownPool: ownPool, peerPool: peerPool))
    }

    /// Checks the commit's confirmation; on success the pending pools may be activated.
    public mutating func receive(commit: PoolExchangeMessage.Commit) throws(PoolExchangeError) {
        guard case .acknowledged(let transcript) = phase else { throw .unexpectedMessage(.commit) }
        guard commit.exchangeID == exchangeID else { throw .exchangeMismatch }
        guard ConstantTime.equals(commit.confirmation, transcript.confirmation) else { throw .confirmationMismatch }
        phase = .finished
    }

    /// True once the commit was verified.
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }
}
