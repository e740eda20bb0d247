import Crypto
import Foundation
import KithRendezvous
import KithSync
import KithTDF
import Synchronization
import Testing

/// The relay router end to end: NanoTDF messages reach the `NanoTDFReceiver`, link frames reach
/// the transport unchanged, even link frames whose bytes begin with the NanoTDF magic.
@Suite struct RelayNanoTDFTests {
    /// Collects what the router hands over.
    final class Collector: NanoTDFReceiver {
        let received = Mutex<[NanoTDF]>([])
        let rejected = Mutex<[NanoTDFError]>([])
        func received(_ nano: NanoTDF) async { received.withLock { $0.append(nano) } }
        func rejected(_ error: NanoTDFError) async { rejected.withLock { $0.append(error) } }
    }

    @Test("NanoTDF goes to its receiver, link frames (even magic-looking ones) to the link, in one relay session")
    func routesByKind() async throws {
        let (server, _, _) = try TestServer.make()
        let recipient = P256.KeyAgreement.PrivateKey()
        let kas = try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: "kith", identifier: [1, 2, 3, 4, 5, 6, 7, 8])
        let nano = try NanoTDF.encrypt(Array("one-time".utf8), to: .p256(recipient.publicKey), configuration: .init(kas: kas, policy: .encrypted([7])))
        let frames: [[UInt8]] = [[0x4C, 0x31, 0x4C, 0x00], [0x4C, 0x31, 0x4C] + nano.serialized.prefix(200), [0x01, 0x02], [0x4C]]
        let collector = Collector()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let code = JoinCode.randomDigits()
            let (deviceA, deviceB) = (DeviceID.random(), DeviceID.random())
            try await pairing.offer(code, device: deviceA)
            let room = try await pairing.accept(code, device: deviceB)
            let url = pairing.signalingURL
            async let sender: Void = RelayConnection.open(signalingURL: url, room: room, device: deviceA) { transport, _ in
                try await transport.send(frames[0])
                try await transport.sendNanoTDF(nano)
                for frame in frames.dropFirst() { try await transport.send(frame) }
            }
            let received: [[UInt8]] = try await RelayConnection.open(signalingURL: url, room: room, device: deviceB, nanoTDF: collector) { transport, _ in
                var got: [[UInt8]] = []
                do throws(SyncTransportError) {
                    while true { got.append(try await transport.receive()) }
                } catch {
                    #expect(error == .disconnected || error == .closed)
                }
                return got
            }
            try await sender
            #expect(received == frames)
        }
        let routed = collector.received.withLock { $0 }
        #expect(routed.count == 1)
        #expect(try routed.first?.decrypt(using: .p256(recipient)) == Array("one-time".utf8))
        #expect(collector.rejected.withLock { $0 }.isEmpty)
    }
}
