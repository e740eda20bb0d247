import KithContinuity
import KithSync

/// Move messages over an authenticated Noise link: each `MoveMessage` travels as one side-chunk record
/// (`SyncFrame.sideChunk`, one fragment whose id is the SHA-256 of the message), so it is sealed, ordered and
/// authenticated by the link like sync records. Anything else on the link is a protocol violation.
struct MoveChannel: Sendable {
    let link: SecureLink

    /// The most stream bytes one data message carries (a message fills one sealed frame).
    var dataCapacity: Int { link.layout.chunkDataLength - 1 }

    func send(_ message: MoveMessage) async throws(KithError) {
        let bytes = message.encoded
        let chunk = SyncChunk(messageID: SyncMessageID(envelope: bytes), chunkIndex: 0, totalChunks: 1, data: bytes)
        do throws(SecureLinkError) { try await link.send(.sideChunk(chunk)) } catch { throw .sync(.link(error)) }
    }

    func receive() async throws(KithError) -> MoveMessage {
        let frame: SyncFrame
        do throws(SecureLinkError) { frame = try await link.receive() } catch { throw .sync(.link(error)) }
        guard case .sideChunk(let chunk) = frame, chunk.totalChunks == 1, chunk.messageID == SyncMessageID(envelope: chunk.data) else {
            throw .continuity(.move(.protocolViolation("a record that is not a move message")))
        }
        do throws(MoveError) { return try MoveMessage(decoding: chunk.data) } catch { throw .continuity(.move(error)) }
    }

    /// Receives the next message, turning a refusal into `MoveError.refusedByPeer`.
    func receiveUnlessRefused() async throws(KithError) -> MoveMessage {
        let message = try await receive()
        if case .refused(let reason) = message { throw .continuity(.move(.refusedByPeer(reason))) }
        return message
    }

    /// Tells the peer why this side stops (best effort) and closes the link.
    func refuse(_ reason: String) async {
        try? await send(.refused(reason))
        await link.close()
    }
}
