import Crypto
import KithIdentity

/// The hybrid X3DH + ML-KEM-768 handshake of feed spec section 4.1.
///
/// ```
/// DH1 = X25519(IK_A as X25519, SPK_B)      DH2 = X25519(EK_A, IK_B as X25519)
/// DH3 = X25519(EK_A, SPK_B)                DH4 = X25519(EK_A, OPK_B)   (if an OPK is used)
/// (pq_ct, pq_ss) = ML-KEM-768.Encaps(PQ_B)
/// master_secret = HKDF-SHA256(32 x 0xFF || DH1 || DH2 || DH3 [|| DH4] || pq_ss,
///                             salt "ProximityApp_X3DH_v1", info feed_id_A || feed_id_B, 32)
/// ```
public enum HybridX3DH {
    /// The initiator's result.
    public struct InitiatorResult: Sendable {
        /// The 32-byte master secret (the Double Ratchet's first root key).
        public let masterSecret: [UInt8]
        /// What the responder needs, carried in prekey messages.
        public let prelude: PrekeyPrelude
    }

    /// Runs the initiator side against `bundle`.
    public static func initiate(
        local: LocalIdentityKeys, bundle: PrekeyBundle, entropy: some RatchetEntropySource
    ) throws(RatchetError) -> InitiatorResult {
        let ephemeral = try entropy.newX25519PrivateKey()
        let signedPrekey = try X25519Agreement.publicKey(bundle.signedPrekey)
        let peerIdentity = try X25519Agreement.publicKey(bundle.peer.identityDHKey)
        var outputs = [
            try X25519Agreement.sharedSecret(local.identityDHKey, signedPrekey),
            try X25519Agreement.sharedSecret(ephemeral, peerIdentity),
            try X25519Agreement.sharedSecret(ephemeral, signedPrekey),
        ]
        if let oneTime = bundle.oneTimePrekey {
            outputs.append(try X25519Agreement.sharedSecret(ephemeral, try X25519Agreement.publicKey(oneTime.publicKey)))
        }
        let (ciphertext, pqSecret) = try entropy.encapsulate(to: bundle.peer.pqKey)
        let master = RatchetKDF.x3dhMasterSecret(
            dhOutputs: outputs, pqSharedSecret: pqSecret,
            initiatorFeedID: local.feedID, responderFeedID: bundle.peer.feedID
        )
        let prelude = PrekeyPrelude(
            initiatorEphemeral: Array(ephemeral.publicKey.rawRepresentation),
            oneTimePrekeyID: bundle.oneTimePrekey?.id, pqCiphertext: ciphertext
        )
        return InitiatorResult(masterSecret: master, prelude: prelude)
    }

    /// Runs the responder side; `oneTimePrekey` is the private key named by the prelude, if any.
    public static func respond(
        local: LocalIdentityKeys, peer: PeerIdentity, prelude: PrekeyPrelude,
        oneTimePrekey: Curve25519.KeyAgreement.PrivateKey?
    ) throws(RatchetError) -> [UInt8] {
        let ephemeral = try X25519Agreement.publicKey(prelude.initiatorEphemeral)
        let peerIdentity = try X25519Agreement.publicKey(peer.identityDHKey)
        var outputs = [
            try X25519Agreement.sharedSecret(local.dhKey, peerIdentity),
            try X25519Agreement.sharedSecret(local.identityDHKey, ephemeral),
            try X25519Agreement.sharedSecret(local.dhKey, ephemeral),
        ]
        if let oneTimePrekey {
            outputs.append(try X25519Agreement.sharedSecret(oneTimePrekey, ephemeral))
        }
        let pqSecret = try decapsulate(prelude.pqCiphertext, with: local.pqKey)
        return RatchetKDF.x3dhMasterSecret(
            dhOutputs: outputs, pqSharedSecret: pqSecret,
            initiatorFeedID: peer.feedID, responderFeedID: local.feedID
        )
    }

    /// ML-KEM-768 decapsulation with the module's error type.
    static func decapsulate(_ ciphertext: [UInt8], with key: MLKEM768.PrivateKey) throws(RatchetError) -> [UInt8] {
        guard ciphertext.count == RatchetConstants.mlkemCiphertextSize else {
            throw .malformed("ML-KEM-768 ciphertext must be \(RatchetConstants.mlkemCiphertextSize) bytes")
        }
        do {
            return try key.decapsulate(ciphertext).withUnsafeBytes { Array($0) }
        } catch {
            throw .invalidPQKey
        }
    }
}
