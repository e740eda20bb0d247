/// How a link of a given MTU carries sealed frames and chunks.
///
///     link frame   = segment header (1) | segment of a link message                 ≤ mtu
///     sealed frame = nonce low 16 bits (2) | ciphertext | tag (16)                    ≤ k × (mtu − 1)
///     plaintext    = records (kind 1 | body) ... [padding]
///     chunk record = 0x03 | length u16 | SyncChunk (36 + data)
///
/// Encryption sits above segmentation: one sealed frame (one nonce, one tag) spans up to
/// `k = min(16, ⌊4096 / (mtu − 1)⌋)` link frames, each paying only its 1-byte segment header, and
/// carries as many records as fit (several whole messages, their acks, offers...). The sync layer
/// therefore sees an "MTU" of ``plaintextCapacity`` bytes: a message whose body fits
/// ``chunkDataLength`` travels as one ``SyncChunk``, so its 32-byte message id appears once.
public struct FrameLayout: Hashable, Sendable {
    /// The link frame size (ATT payload).
    public let mtu: Int
    /// Link frames a full sealed frame spans.
    public let segmentsPerSealedFrame: Int
    /// Bytes of a full sealed frame (nonce + ciphertext + tag).
    public let sealedFrameLength: Int
    /// Plaintext bytes a sealed frame carries at most.
    public let plaintextCapacity: Int
    /// Body bytes per chunk so that one chunk record fills one sealed frame.
    public let chunkDataLength: Int

    /// The layout for an MTU.
    /// - Throws: ``SecureLinkError/unsupportedMTU(_:)`` outside 20...509.
    public init(mtu: Int) throws(SecureLinkError) {
        guard (SyncLimits.minimumMTU...SyncLimits.maximumMTU).contains(mtu) else { throw .unsupportedMTU(mtu) }
        let perFrame = mtu - SyncLimits.segmentHeaderLength
        let segments = min(SyncLimits.maximumSegmentsPerSealedFrame, SyncLimits.maximumLinkMessageLength / perFrame)
        self.mtu = mtu
        segmentsPerSealedFrame = segments
        sealedFrameLength = segments * perFrame
        plaintextCapacity = sealedFrameLength - SyncLimits.sealedNonceLength - SyncLimits.tagLength
        chunkDataLength = plaintextCapacity - SyncLimits.chunkRecordPrefixLength - SyncLimits.chunkHeaderLength
    }

    /// Bytes of a link frame that carry link-message bytes (the MTU minus the segment header).
    public var segmentPayloadLength: Int { mtu - SyncLimits.segmentHeaderLength }

    /// Bytes on the link (segment headers, nonce, tag, record prefix, chunk header) per full chunk.
    public var overheadPerChunk: Int {
        segmentsPerSealedFrame * SyncLimits.segmentHeaderLength + SyncLimits.sealedNonceLength + SyncLimits.tagLength
            + SyncLimits.chunkRecordPrefixLength + SyncLimits.chunkHeaderLength
    }

    /// Share of link bytes that are body bytes for full chunks.
    public var chunkEfficiency: Double {
        Double(chunkDataLength) / Double(chunkDataLength + overheadPerChunk)
    }

    /// Link bytes (segment headers included) of a sealed frame carrying `plaintextLength` bytes.
    public func linkBytes(plaintextLength: Int) -> Int {
        let sealed = plaintextLength + SyncLimits.sealedNonceLength + SyncLimits.tagLength
        let frames = (sealed + segmentPayloadLength - 1) / segmentPayloadLength
        return sealed + frames * SyncLimits.segmentHeaderLength
    }
}
