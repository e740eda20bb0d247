/// Carries handshake messages as segmented link messages; any lost frame fails the handshake.
struct HandshakeChannel: Sendable {
    let transport: any SyncTransport
    var segmenter = LinkSegmenter()
    var reassembler = LinkSegmentReassembler()

    init(transport: any SyncTransport) {
        self.transport = transport
    }

    mutating func send(_ message: [UInt8]) async throws(SecureLinkError) {
        for frame in segmenter.segments(of: message, mtu: transport.mtu) {
            do { try await transport.send(frame) } catch { throw .transport(error) }
        }
    }

    mutating func receive() async throws(SecureLinkError) -> [UInt8] {
        while true {
            let frame: [UInt8]
            do { frame = try await transport.receive() } catch { throw .transport(error) }
            let missingBefore = reassembler.missingFrames
            let message = try reassembler.accept(frame)
            guard reassembler.missingFrames == missingBefore else { throw .handshakeFrameLost }
            if let message { return message }
        }
    }
}
