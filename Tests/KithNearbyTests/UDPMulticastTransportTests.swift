import KithSync
import Testing
@testable import KithNearby

@Suite("UDP multicast on loopback", .timeLimit(.minutes(3)))
struct UDPMulticastTransportTests {
    @Test("two sockets on 127.0.0.1 hear each other's beacons through the group")
    func loopback() async throws {
        let port = Int.random(in: 40_000...49_000)
        let first = try await UDPMulticastTransport.open(port: port, interfaceAddress: "127.0.0.1")
        let second = try await UDPMulticastTransport.open(port: port, interfaceAddress: "127.0.0.1")
        let beacon = NearbyBeacon(port: 7455, tags: [[UInt8]](repeating: [9, 9, 9, 9, 9, 9, 9, 9], count: 8)).encoded
        let heard = Task { () -> NearbyDatagram? in
            for await datagram in second.datagrams where datagram.bytes == beacon { return datagram }
            return nil
        }
        // Multicast is best effort: send until the other socket heard it (bounded generously; a loaded machine may
        // read the socket late), and only then close.
        let sender = Task {
            let deadline = ContinuousClock.now + .seconds(30)
            while !Task.isCancelled, ContinuousClock.now < deadline {
                try? await first.send(beacon)
                try? await Task.sleep(for: .milliseconds(50))
            }
            // Closing ends `heard` when nothing came.
            await second.close()
        }
        let datagram = try #require(await heard.value)
        sender.cancel()
        await sender.value
        await first.close()
        #expect(datagram.sourceHost == "127.0.0.1")
    }

    @Test("an unknown interface address is refused")
    func unknownInterface() async {
        await #expect(throws: NearbyError.self) {
            _ = try await UDPMulticastTransport.open(port: 47_999, interfaceAddress: "10.255.255.254")
        }
    }
}
