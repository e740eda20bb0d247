/// The handshake patterns a ``SecureLink`` speaks, selected by the first byte of the first handshake message.
public enum SecureLinkPattern: UInt8, Sendable, CaseIterable {
    /// 0x01: `Noise_XX_25519_ChaChaPoly_SHA256`, for peers whose static key is not known in advance.
    case xx = 0x01
    /// 0x02: `Noise_IK_25519_ChaChaPoly_SHA256`, 1-RTT when the initiator knows the responder's static key.
    case ik = 0x02

    /// The Noise protocol name.
    public var protocolName: String {
        switch self {
        case .xx: "Noise_XX_25519_ChaChaPoly_SHA256"
        case .ik: "Noise_IK_25519_ChaChaPoly_SHA256"
        }
    }

    /// The Noise prologue: ``SyncLimits/noisePrologue`` followed by the selector byte.
    public var prologue: [UInt8] { SyncLimits.noisePrologue + [rawValue] }
}
