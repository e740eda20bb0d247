import KithSync

extension FuzzTarget {
    /// The plaintext of one sealed sync frame: the records it carries, and each fixed wire structure.
    static let syncRecords = FuzzTarget(name: "sync-records", summary: "KithSync records in a sealed frame and the wire structures") { input in
        if let frames = try? SyncFrame.decodeAll(input) {
            var again: [SyncFrame] = []
            for frame in frames {
                guard let bytes = try? frame.encoded(), let decoded = try? SyncFrame.decodeAll(bytes) else {
                    FuzzProperty.require(false, "a decoded frame does not re-encode")
                    return
                }
                again += decoded
            }
            FuzzProperty.require(again == frames, "frames do not survive re-encoding")
        }
        _ = try? SyncHello(decoding: input)
        _ = try? SyncHeldRanges(decoding: input)
        _ = try? SyncRequest(decoding: input)
        _ = try? SyncOffer(decoding: input)
        _ = try? SyncAck(decoding: input)
        _ = try? SyncBlobWant(decoding: input)
    }

    /// A sequence of chunks (parts of the input) through message reassembly, with and without
    /// compression, and the link's segment reassembly.
    static let syncReassembly = FuzzTarget(name: "sync-reassembly", summary: "KithSync chunk reassembly, zstd bodies and link segments") { input in
        let compressed = (input.first ?? 0) & 1 == 1
        let limits = ReassemblyLimits(
            maximumConcurrentReassemblies: 4, maximumBufferedBytes: 1 << 16, maximumBodyLength: 1 << 15, maximumChunksPerMessage: 64, inactivityTimeout: 30)
        var reassembler = MessageReassembler(limits: limits, compressionNegotiated: compressed, dictionaryNegotiated: compressed)
        var segments = LinkSegmentReassembler(maximumLength: 1 << 15)
        var now = 0.0
        for part in FuzzProperty.parts(of: Array(input.dropFirst())) {
            now += 1
            if let chunk = try? SyncChunk(decoding: part) { _ = try? reassembler.accept(chunk, now: now) }
            _ = try? segments.accept(part)
            FuzzProperty.require(reassembler.bufferedBytes <= limits.maximumBufferedBytes, "reassembly buffered beyond its bound")
            FuzzProperty.require(reassembler.inProgressCount <= limits.maximumConcurrentReassemblies, "more reassemblies than the bound")
        }
        _ = try? MessageBody.decode(input, compressionNegotiated: true, dictionaryNegotiated: true)
    }
}
