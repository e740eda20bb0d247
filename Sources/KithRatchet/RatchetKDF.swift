import Crypto
import KithIdentity

/// The key-derivation functions of the hybrid X3DH and the Double Ratchet.
public enum RatchetKDF {
    /// HKDF-SHA256 (RFC 5869) extract-then-expand.
    public static func hkdf(ikm: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int) -> [UInt8] {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ikm), salt: salt, info: info, outputByteCount: outputByteCount
        )
        return key.withUnsafeBytes { Array($0) }
    }

    /// HMAC-SHA256.
    public static func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    /// The hybrid X3DH master secret:
    /// `HKDF-SHA256(ikm = 32 x 0xFF || DH1 || DH2 || DH3 [|| DH4] || pq_ss, salt = "ProximityApp_X3DH_v1",
    /// info = initiator_feed_id || responder_feed_id, L = 32)`.
    public static func x3dhMasterSecret(
        dhOutputs: [[UInt8]], pqSharedSecret: [UInt8], initiatorFeedID: String, responderFeedID: String
    ) -> [UInt8] {
        var ikm = RatchetConstants.x3dhPrefix
        for output in dhOutputs { ikm += output }
        ikm += pqSharedSecret
        let info = Array(initiatorFeedID.utf8) + Array(responderFeedID.utf8)
        return hkdf(ikm: ikm, salt: RatchetConstants.x3dhSalt, info: info, outputByteCount: 32)
    }

    /// `KDF_RK`: `HKDF-SHA256(salt = rk, ikm = dh_out [|| pq_ss], info = "Kith_DR_RK_v1", L = 64)`
    /// split into (new root key, chain key).
    public static func rootStep(rootKey: [UInt8], dhOutput: [UInt8], pqSharedSecret: [UInt8]?) -> (rootKey: [UInt8], chainKey: [UInt8]) {
        let output = hkdf(
            ikm: dhOutput + (pqSharedSecret ?? []), salt: rootKey,
            info: RatchetConstants.rootKDFInfo, outputByteCount: 64
        )
        return (Array(output[0..<32]), Array(output[32..<64]))
    }

    /// `KDF_CK`: message key = HMAC-SHA256(ck, 0x01), next chain key = HMAC-SHA256(ck, 0x02).
    public static func chainStep(chainKey: [UInt8]) -> (messageKey: [UInt8], nextChainKey: [UInt8]) {
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: chainKey))
        var messageMAC = keyed, chainMAC = keyed
        messageMAC.update(data: messageSeed)
        chainMAC.update(data: chainSeed)
        return (Array(messageMAC.finalize()), Array(chainMAC.finalize()))
    }

    private static let messageSeed: [UInt8] = [RatchetConstants.messageKeySeed]
    private static let chainSeed: [UInt8] = [RatchetConstants.chainKeySeed]

    /// The AEAD nonce of a direct message: `SHA-256(uint64_be(sequence) || feed_id_ascii)[0..<12]`.
    public static func nonce(sequence: UInt64, feedID: String) -> [UInt8] {
        var hasher = SHA256()
        var be = sequence.bigEndian
        withUnsafeBytes(of: &be) { hasher.update(bufferPointer: $0) }
        hasher.update(data: Array(feedID.utf8))
        return Array(hasher.finalize().prefix(RatchetConstants.nonceSize))
    }
}
