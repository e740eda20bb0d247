import Crypto

/// The values both sides of a pool exchange must agree on, and the commit confirmation over them.
///
/// `confirmation = SHA-256("kith-otk-exchange-v1" ‖ u16 len ‖ channel binding ‖ exchange id ‖
/// initiator nonce ‖ responder nonce ‖ pool size u32 ‖ offer digest ‖ ack digest)`. The channel
/// binding is the secure link's handshake hash, so an exchange cannot be replayed into another link.
struct PoolExchangeTranscript: Sendable {
    let channelBinding: [UInt8]
    let exchangeID: PoolExchangeID
    let initiatorNonce: [UInt8]
    let responderNonce: [UInt8]
    let poolSize: UInt32
    let offerDigest: [UInt8]
    let ackDigest: [UInt8]

    /// SHA-256 of the keys in order (each 33 bytes).
    static func digest(of keys: [[UInt8]]) -> [UInt8] {
        var hash = SHA256()
        for key in keys { hash.update(data: key) }
        return Array(hash.finalize())
    }

    var confirmation: [UInt8] {
        var hash = SHA256()
        hash.update(data: Array("kith-otk-exchange-v1".utf8))
        hash.update(data: [UInt8(truncatingIfNeeded: channelBinding.count >> 8), UInt8(truncatingIfNeeded: channelBinding.count)])
        hash.update(data: channelBinding)
        hash.update(data: exchangeID.bytes)
        hash.update(data: initiatorNonce)
        hash.update(data: responderNonce)
        hash.update(data: [UInt8(poolSize >> 24 & 0xFF), UInt8(poolSize >> 16 & 0xFF), UInt8(poolSize >> 8 & 0xFF), UInt8(poolSize & 0xFF)])
        hash.update(data: offerDigest)
        hash.update(data: ackDigest)
        return Array(hash.finalize())
    }

    static func randomNonce() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }
}
