/// The key and nonce protecting a PrivateMessage's `SenderData` (RFC 9420 §6.3.2).
public struct SenderDataKey: Sendable, Hashable {
    /// The AEAD key.
    public var key: [UInt8]
    /// The AEAD nonce.
    public var nonce: [UInt8]

    /// Derives the key and nonce from `sender_data_secret` and the first `Nh` bytes of the content ciphertext.
    public init(suite: CipherSuite, senderDataSecret: [UInt8], ciphertext: [UInt8]) throws {
        let sample = Array(ciphertext.prefix(suite.secretSize))
        key = try suite.expandWithLabel(secret: senderDataSecret, label: "key", context: sample, length: suite.aead.keySize)
        nonce = try suite.expandWithLabel(secret: senderDataSecret, label: "nonce", context: sample, length: suite.aead.nonceSize)
    }
}
