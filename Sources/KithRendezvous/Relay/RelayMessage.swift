import KithSync

/// One binary WebSocket message on the relay, as the two clients frame it (docs/SERVER.md 3.1,
/// docs/TDF.md "Relay router"); the server forwards it unread.
///
/// The first byte says what follows, so a message is never routed by guesswork:
///
/// | first bytes | message | rest |
/// |---|---|---|
/// | `0x01` | a secure-link frame (Noise ciphertext) | 1...``SyncLimits/maximumMTU`` bytes |
/// | `4C 31 4C` ("L1L") or `4C 31 4D` ("L1M") | a NanoTDF, magic included | up to ``maximumNanoTDFLength`` bytes in all |
///
/// A link frame always carries the `0x01` prefix, so its ciphertext can never be taken for a
/// NanoTDF (which starts with `0x4C`), whatever its bytes. Any other first byte is refused.
public enum RelayMessage: Sendable, Equatable {
    /// A secure-link frame.
    case linkFrame([UInt8])
    /// A NanoTDF (the whole container, starting with its magic).
    case nanoTDF([UInt8])

    /// The kind byte that prefixes a link frame.
    public static let linkFrameKind: UInt8 = 0x01
    /// The first two bytes of every NanoTDF magic and version (`L1`).
    public static let nanoTDFMagicPrefix: [UInt8] = [0x4C, 0x31]
    /// The third byte of the versions Kith reads: v12 "L1L" and v13 "L1M".
    public static let nanoTDFVersions: Set<UInt8> = [0x4C, 0x4D]
    /// The largest NanoTDF sent as one relay message (the server's relay frame limit).
    public static let maximumNanoTDFLength = 65_536

    /// The bytes to send as one binary message.
    public var encoded: [UInt8] {
        switch self {
        case .linkFrame(let frame): [Self.linkFrameKind] + frame
        case .nanoTDF(let bytes): bytes
        }
    }

    /// Classifies a received binary message.
    /// - Throws: ``SyncTransportError/invalidFrameLength(_:mtu:)`` for an empty or oversized link
    ///   frame or NanoTDF, ``SyncTransportError/unknownFrameKind(_:)`` for any other first byte
    ///   (including `0x4C` not followed by a NanoTDF magic).
    public init(decoding message: [UInt8]) throws(SyncTransportError) {
        guard let kind = message.first else { throw .invalidFrameLength(0, mtu: SyncLimits.maximumMTU) }
        if kind == Self.linkFrameKind {
            let frame = Array(message.dropFirst())
            guard (1...SyncLimits.maximumMTU).contains(frame.count) else {
                throw .invalidFrameLength(frame.count, mtu: SyncLimits.maximumMTU)
            }
            self = .linkFrame(frame)
            return
        }
        guard message.count >= 3, message.starts(with: Self.nanoTDFMagicPrefix), Self.nanoTDFVersions.contains(message[2]) else {
            throw .unknownFrameKind(kind)
        }
        guard message.count <= Self.maximumNanoTDFLength else {
            throw .invalidFrameLength(message.count, mtu: Self.maximumNanoTDFLength)
        }
        self = .nanoTDF(message)
    }
}
