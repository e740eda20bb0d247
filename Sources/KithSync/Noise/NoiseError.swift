/// Why a Noise operation failed.
public enum NoiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The protocol name is not `Noise_<pattern>_25519_ChaChaPoly_SHA256` with a known pattern.
    case unsupportedProtocol(String)
    /// A key the pattern needs (local static, remote static, pre-shared key) was not supplied.
    case missingKey(String)
    /// A key had the wrong length.
    case invalidKeyLength(Int)
    /// X25519 failed (for example a low-order public key).
    case keyAgreementFailed
    /// A message was shorter than the pattern requires.
    case messageTooShort
    /// A handshake message is longer than the 65535-byte Noise limit.
    case messageTooLong(Int)
    /// ChaCha20-Poly1305 authentication failed: the message was tampered with or the keys differ.
    case authenticationFailed
    /// The nonce counter reached 2^64 − 1; the cipher must be rekeyed or the session re-established.
    case nonceExhausted
    /// writeMessage/readMessage was called out of turn or after the handshake finished.
    case outOfTurn
    /// Transport keys were requested before the handshake finished.
    case handshakeIncomplete

    public var description: String {
        switch self {
        case .unsupportedProtocol(let name): "unsupported Noise protocol \(name)"
        case .missingKey(let what): "the handshake pattern needs \(what), which was not supplied"
        case .invalidKeyLength(let count): "Noise keys are 32 bytes, got \(count)"
        case .keyAgreementFailed: "X25519 key agreement failed (invalid or low-order public key)"
        case .messageTooShort: "Noise message is shorter than its pattern requires"
        case .messageTooLong(let count): "Noise message of \(count) bytes exceeds 65535"
        case .authenticationFailed: "Noise decryption failed: message tampered with or keys differ"
        case .nonceExhausted: "Noise nonce counter exhausted; rekey or re-establish the session"
        case .outOfTurn: "Noise handshake message written or read out of turn"
        case .handshakeIncomplete: "Noise handshake has not finished"
        }
    }
}
