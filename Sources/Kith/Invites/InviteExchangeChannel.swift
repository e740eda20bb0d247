import Foundation
import KithInvites
import KithSync

/// Carries ``InviteExchangeMessage``s over a Noise secure link: each message travels as the chunks of one sync
/// message (its id the SHA-256 of the message), reassembled under the exchange's own bounds (one message at a time,
/// at most ``InviteExchangeMessage/maxEncodedBytes``).
struct InviteExchangeChannel: Sendable {
    /// The authenticated link.
    let link: SecureLink
    /// The largest message this side accepts: the creator expects only a joiner's messages
    /// (``InviteExchangeMessage/maxJoinerMessageBytes``), the joiner a Welcome with its tree.
    let maximumIncomingBytes: Int

    init(link: SecureLink, maximumIncomingBytes: Int = InviteExchangeMessage.maxEncodedBytes) {
        self.link = link
        self.maximumIncomingBytes = maximumIncomingBytes
    }

    private static func limits(_ bytes: Int) -> ReassemblyLimits {
        let body = bytes + 16
        return ReassemblyLimits(
            maximumConcurrentReassemblies: 1, maximumBufferedBytes: body, maximumBodyLength: body, maximumChunksPerMessage: 4_096,
            inactivityTimeout: 30)
    }

    /// Sends one message.
    func send(_ message: InviteExchangeMessage) async throws(KithError) {
        let bytes: [UInt8]
        do throws(InviteExchangeError) { bytes = try message.encoded() } catch { throw .input(.invalid(error.description)) }
        let body = MessageBody.encode(envelope: bytes, compressionNegotiated: false)
        let chunks: [SyncChunk]
        do throws(FragmentationError) {
            chunks = try MessageFragmenter.chunks(
                messageID: SyncMessageID(envelope: bytes), body: body, chunkDataLength: link.layout.chunkDataLength,
                maximumBodyLength: InviteExchangeMessage.maxEncodedBytes + 16, maximumChunks: 4_096)
        } catch {
            throw .input(.invalid("invite exchange message: \(error)"))
        }
        do throws(SecureLinkError) { try await link.send(chunks.map { SyncFrame.chunk($0) }) } catch { throw .sync(.link(error)) }
    }

    /// Waits for the next whole message; anything but chunks of one bounded message ends the exchange.
    func receive() async throws(KithError) -> InviteExchangeMessage {
        var reassembler = MessageReassembler(limits: Self.limits(maximumIncomingBytes))
        while true {
            let frame: SyncFrame
            do throws(SecureLinkError) { frame = try await link.receive() } catch { throw .sync(.link(error)) }
            guard case .chunk(let chunk) = frame else {
                throw .input(.invalid(InviteExchangeError.unexpected("a sync record instead of an invite exchange message").description))
            }
            let received: ReceivedMessage?
            do throws(ReassemblyError) {
                received = try reassembler.accept(chunk, now: Date().timeIntervalSince1970)
            } catch {
                throw .input(.invalid("invite exchange message: \(error)"))
            }
            guard let received else { continue }
            do throws(InviteExchangeError) {
                return try InviteExchangeMessage(decoding: received.envelope)
            } catch {
                throw .input(.invalid(error.description))
            }
        }
    }
}
