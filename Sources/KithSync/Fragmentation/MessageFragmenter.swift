/// Splits a message body into ``SyncChunk``s (spec 8.1, 8.3).
public enum MessageFragmenter {
    /// The chunks of `body`, each carrying at most `chunkDataLength` bytes, in index order.
    ///
    /// Use ``FrameLayout/chunkDataLength`` for the link's MTU so that each chunk fills one sealed frame.
    public static func chunks(messageID: SyncMessageID, body: [UInt8], chunkDataLength: Int) throws(FragmentationError) -> [SyncChunk] {
        try chunks(
            messageID: messageID, body: body, chunkDataLength: chunkDataLength,
            maximumBodyLength: SyncLimits.maximumBodyLength, maximumChunks: SyncLimits.maximumChunksPerMessage
        )
    }

    /// The chunks of a body under explicit bounds (blobs use ``SyncLimits/maximumChunksPerBlob``
    /// and the session's blob size limit).
    public static func chunks(
        messageID: SyncMessageID, body: [UInt8], chunkDataLength: Int, maximumBodyLength: Int, maximumChunks: Int
    ) throws(FragmentationError) -> [SyncChunk] {
        guard chunkDataLength > 0 else { throw .invalidChunkDataLength(chunkDataLength) }
        guard !body.isEmpty else { throw .emptyBody }
        guard body.count <= maximumBodyLength else { throw .bodyTooLarge(body.count) }
        let total = (body.count + chunkDataLength - 1) / chunkDataLength
        guard total <= min(maximumChunks, Int(UInt16.max)) else { throw .tooManyChunks(total) }
        return (0..<total).map { index in
            let start = index * chunkDataLength
            let end = min(start + chunkDataLength, body.count)
            return SyncChunk(
                messageID: messageID,
                chunkIndex: UInt16(index),
                totalChunks: UInt16(total),
                data: Array(body[start..<end])
            )
        }
    }
}
