import KithSync

/// Bounds of a relay chat.
public enum ChatLimits {
    /// Largest line in UTF-8 bytes: one message (kind byte, text, 16-byte tag) fits one relay
    /// link frame of ``SyncLimits/maximumMTU`` bytes, so a line is never split.
    public static let maximumLineBytes = 400
    /// The Noise prologue, binding the handshake to this use.
    static let prologue = Array("kith-chat-v1".utf8)
    /// `Noise_XX_25519_ChaChaPoly_SHA256`: both static keys travel encrypted, none is known beforehand.
    static let protocolName = "Noise_XX_25519_ChaChaPoly_SHA256"
}
