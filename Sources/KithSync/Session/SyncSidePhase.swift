/// Runs a side phase of whole application messages over a secure link, before the sync session
/// (capability ``SyncCapabilities/sidePhase``): each message travels as side chunks (record
/// 0x0B, id = SHA-256 of the message), bounded in size, count and reassembly.
///
/// Both sides call ``run(link:handler:clock:)`` right after the handshake, then start their
/// ``SyncSession`` on the same link once it returns; the handler's contract
/// (``SyncSideHandler``) guarantees every side record is read here and never by the session.
public enum SyncSidePhase {
    /// The largest side message (a 65,536-key pool offer is 2,162,774 bytes).
    public static let maximumMessageLength = 2_228_224
    /// The most messages one side may send in the phase.
    public static let maximumMessages = 16

    /// Runs the phase until the handler reports `finished`.
    /// - Throws: ``SyncSidePhaseError``; the handler was told (``SyncSideHandler/interrupted(peer:)``).
    public static func run(link: SecureLink, handler: any SyncSideHandler, clock: any SyncClock) async throws(SyncSidePhaseError) {
        let peer = SyncPeer(staticKey: link.peerStaticKey)
        do {
            try await drive(link: link, handler: handler, clock: clock, peer: peer)
        } catch {
            await handler.interrupted(peer: peer)
            throw error
        }
    }

    private static func drive(link: SecureLink, handler: any SyncSideHandler, clock: any SyncClock, peer: SyncPeer) async throws(SyncSidePhaseError) {
        let chunkLength = link.layout.chunkDataLength
        let maximumChunks = (maximumMessageLength + chunkLength - 1) / chunkLength
        var reassembler = MessageReassembler(limits: ReassemblyLimits(
            maximumConcurrentReassemblies: 1, maximumBufferedBytes: maximumMessageLength, maximumBodyLength: maximumMessageLength,
            maximumChunksPerMessage: min(maximumChunks, Int(UInt16.max)), inactivityTimeout: SyncLimits.reassemblyTimeout
        ))
        var step = await handler.opening(peer: peer, channelBinding: link.handshakeHash)
        try await send(step.messages, on: link, maximumChunks: maximumChunks)
        var received = 0
        while !step.finished {
            let frame: SyncFrame
            do { frame = try await link.receive() } catch { throw .link(error) }
            guard case .sideChunk(let chunk) = frame else { throw .unexpectedRecord(frame.kind) }
            let now = await clock.now()
            let message: ReceivedMessage
            do {
                guard let complete = try reassembler.accept(chunk, now: now) else { continue }
                message = complete
            } catch {
                throw .reassembly(error)
            }
            received += 1
            guard received <= maximumMessages else { throw .tooManyMessages }
            step = await handler.received(message.envelope, peer: peer)
            try await send(step.messages, on: link, maximumChunks: maximumChunks)
        }
    }

    private static func send(_ messages: [[UInt8]], on link: SecureLink, maximumChunks: Int) async throws(SyncSidePhaseError) {
        guard !messages.isEmpty else { return }
        for message in messages {
            let chunks: [SyncChunk]
            do {
                chunks = try MessageFragmenter.chunks(
                    messageID: SyncMessageID(envelope: message), body: message, chunkDataLength: link.layout.chunkDataLength,
                    maximumBodyLength: maximumMessageLength, maximumChunks: maximumChunks
                )
            } catch {
                throw .messageTooLarge(message.count)
            }
            do { try await link.enqueue(chunks.map(SyncFrame.sideChunk)) } catch { throw .link(error) }
        }
        do { try await link.flush() } catch { throw .link(error) }
    }
}
