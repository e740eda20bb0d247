import NIOCore
import Testing

@testable import KithServer

@Suite("Open connections counted by source")
struct SourceConnectionCounterTests {
    static func source(_ address: String) throws -> String {
        RendezvousRequestContext.sourceKey(of: try SocketAddress(ipAddress: address, port: 443))
    }

    @Test("addresses in one IPv6 /64 share their cap; another /64 and an IPv4 address have their own; a release frees a slot")
    func perSourceAndPrefix() throws {
        let counter = SourceConnectionCounter(limitPerSource: 2)
        let home = try Self.source("2001:db8:1:2::10")
        let sameHome = try Self.source("2001:db8:1:2:ffff::99")
        let neighbour = try Self.source("2001:db8:1:3::10")
        let office = try Self.source("198.51.100.7")
        #expect(counter.admit(home))
        #expect(counter.admit(sameHome))
        #expect(!counter.admit(home), "a third connection from the same /64 was admitted")
        #expect(counter.admit(neighbour))
        #expect(counter.admit(office))
        #expect(counter.admit(office))
        #expect(!counter.admit(office))
        counter.release(sameHome)
        #expect(counter.admit(home))
        for _ in 0..<2 {
            counter.release(home)
            counter.release(office)
        }
        counter.release(neighbour)
        // Releasing more than was admitted never goes below zero or leaves entries behind.
        counter.release(neighbour)
        #expect(counter.sources == 0)
    }
}
