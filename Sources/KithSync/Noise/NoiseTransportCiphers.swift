/// The two transport ciphers produced by a finished handshake.
public struct NoiseTransportCiphers: Sendable {
    /// Encrypts what this side sends.
    public var sending: NoiseCipherState
    /// Decrypts what this side receives.
    public var receiving: NoiseCipherState
}
