import KithMLS
/// A `psk_secret.json` case (RFC 9420 §8.4): chaining external PSKs.
public struct PSKSecretVector: ConformanceVector {
    /// `psk_secret.json`.
    public static let fileName = "psk_secret.json"

    struct PSK: Decodable, Sendable { let psk_id: HexString; let psk: HexString; let psk_nonce: HexString }

    let cipher_suite: UInt16
    let psks: [PSK]
    let psk_secret: HexString

    /// Checks `psk_secret`.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let list = psks.map { PreSharedKey(id: PreSharedKeyID(kind: .external(id: $0.psk_id.bytes), nonce: $0.psk_nonce.bytes), secret: $0.psk.bytes) }
            try Conformance.expectEqual("psk_secret", try PreSharedKey.pskSecret(suite: suite, psks: list), psk_secret.bytes)
        }
    }
}
