/// How a link of a given MTU carries sealed frames and chunks.
///
///     link frame   = segment header (1) | segment of a link message           ≤ mtu
///     sealed frame = nonce low 16 bits (2) | ciphertext | tag (16)             = k × (mtu − 1)
///     plaintext    = records (kind 1 | body) ... [padding]
///     chunk record = 0x03 | length u16 | SyncChunk (36 + data)
///
/// At MTUs where one link frame leaves at least ``SyncLimits/minimumSealedPlaintext`` bytes of
/// plaintext, a sealed frame is exactly one link frame (k = 1). Below that (MTU 20 at the extreme)
/// a sealed frame spans k link frames, so the 18 bytes of nonce and tag and the 36-byte chunk
/// header are paid once per k frames instead of being impossible.
public struct FrameLayout: Hashable, Sendable {
    /// The link frame size (ATT payload).
    public let mtu: Int
    /// Link frames per full sealed frame.
    public let segmentsPerSealedFrame: Int
    /// Bytes of a full sealed frame (nonce + ciphertext + tag).
    public let sealedFrameLength: Int
    /// Plaintext bytes a sealed frame carries.
    public let plaintextCapacity: Int
    /// Envelope bytes per chunk so that one chunk record fills one sealed frame.
    public let chunkDataLength: Int

    /// The layout for an MTU.
    /// - Throws: ``SecureLinkError/unsupportedMTU(_:)`` outside 20...509.
    public init(mtu: Int) throws(SecureLinkError) {
        guard (SyncLimits.minimumMTU...SyncLimits.maximumMTU).contains(mtu) else { throw .unsupportedMTU(mtu) }
        let perFrame = mtu - SyncLimits.segmentHeaderLength
        let sealingOverhead = SyncLimits.sealedNonceLength + SyncLimits.tagLength
        let needed = SyncLimits.minimumSealedPlaintext + sealingOverhead
        let segments = perFrame >= needed ? 1 : (needed + perFrame - 1) / perFrame
        self.mtu = mtu
        segmentsPerSealedFrame = segments
        sealedFrameLength = segments * perFrame
        plaintextCapacity = sealedFrameLength - sealingOverhead
        chunkDataLength = plaintextCapacity - SyncLimits.chunkRecordPrefixLength - SyncLimits.chunkHeaderLength
    }

    /// Bytes on the link (segment headers, nonce, tag, record prefix, chunk header) per full chunk.
    public var overheadPerChunk: Int {
        segmentsPerSealedFrame * SyncLimits.segmentHeaderLength + SyncLimits.sealedNonceLength + SyncLimits.tagLength
            + SyncLimits.chunkRecordPrefixLength + SyncLimits.chunkHeaderLength
    }

    /// Share of link bytes that are envelope bytes for full chunks.
    public var chunkEfficiency: Double {
        Double(chunkDataLength) / Double(chunkDataLength + overheadPerChunk)
    }
}
