import Crypto
import Kith
import KithCanonical
import KithRatchet

extension FuzzTarget {
    /// A direct message on the wire: type, prekey prelude, ratchet header and ciphertext.
    static let directMessage = FuzzTarget(name: "direct-message", summary: "KithRatchet direct-message wire (prelude and ratchet header)") { input in
        guard let (wire, headerBytes) = try? DirectMessageWire.decode(input) else { return }
        FuzzProperty.require(wire.headerBytes == headerBytes, "the header bytes a message is authenticated with differ from the ones read")
        FuzzProperty.require(wire.encoded == input, "a direct message does not keep its bytes")
    }

    /// Prekeys from a contact: a signed prekey, a one-time prekey batch and a prekey handover.
    static let prekeys = FuzzTarget(name: "prekeys", summary: "KithRatchet signed prekeys, one-time prekey batches and handovers") { input in
        guard let key = RatchetFuzzKeys.issuer else { return }
        _ = try? SignedPrekey.decode(input, identityKey: Array(key.rawRepresentation))
        _ = try? OneTimePrekeyBatch.decode(input)
        if let text = FuzzProperty.text(input) { _ = try? PrekeyHandover(text: text, issuerKey: key) }
    }
}

/// The issuer identity key of `TestVectors/direct/prekey-handover-v1.json`, so its handover verifies.
enum RatchetFuzzKeys {
    static let issuer: Curve25519.Signing.PublicKey? = {
        guard let raw = try? Base64URL.decode("sTpZeTFhE9m724YCZGC6-nPK0SKGiPCTZ0y_vNDMY-A", expectedLength: 32) else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }()
}
