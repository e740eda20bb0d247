/// A PSK identifier with its secret value.
public struct PreSharedKey: Sendable, Hashable {
    /// The identifier as carried in proposals and GroupSecrets.
    public var id: PreSharedKeyID
    /// The secret.
    public var secret: [UInt8]

    /// Pairs an identifier with its secret.
    public init(id: PreSharedKeyID, secret: [UInt8]) {
        self.id = id
        self.secret = secret
    }

    /// Chains a list of PSKs into `psk_secret` (RFC 9420 §8.4); an empty list gives `Nh` zero bytes.
    public static func pskSecret(suite: CipherSuite, psks: [PreSharedKey]) throws -> [UInt8] {
        var secret = suite.zeroSecret
        guard psks.count <= Int(UInt16.max) else { throw MLSCryptoError.invalidLength("too many PSKs") }
        for (index, psk) in psks.enumerated() {
            let extracted = suite.extract(salt: suite.zeroSecret, ikm: psk.secret)
            var label = TLSWriter()
            psk.id.encode(to: &label)
            label.writeUInt16(UInt16(index))
            label.writeUInt16(UInt16(psks.count))
            let input = try suite.expandWithLabel(secret: extracted, label: "derived psk", context: label.bytes, length: suite.secretSize)
            secret = suite.extract(salt: input, ikm: secret)
        }
        return secret
    }
}
