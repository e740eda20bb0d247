/// A private key and its public key in their raw MLS encodings.
public struct KeyPair: Sendable, Hashable {
    /// The serialized private key (kept in memory only).
    public var privateKey: [UInt8]
    /// The serialized public key as sent on the wire.
    public var publicKey: [UInt8]

    /// Pairs a private key with its public key.
    public init(privateKey: [UInt8], publicKey: [UInt8]) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }
}
