import Testing
@testable import KithSync

/// zstd is a system library where the platform has one (Linux); elsewhere the Hello leaves the
/// zstd bits out, so compression is negotiated away rather than failing on a link.
@Suite struct CompressionAvailabilityTests {
    @Test func theHelloOffersZstdExactlyWhenThisBuildHasIt() throws {
        let hello = SyncHello()
        #expect(hello.capabilities == SyncCapabilities.supported)
        #expect(hello.capabilities.contains(.zstdEnvelopes) == EnvelopeCompression.isAvailable)
        #expect(hello.capabilities.isSuperset(of: [.heldRanges, .blobs]))
        #if os(Linux)
        #expect(EnvelopeCompression.isAvailable)
        let frame = try EnvelopeCompression.compress(Array(repeating: 7, count: 300))
        #expect(try EnvelopeCompression.decompress(frame, declaredSize: 300) == Array(repeating: 7, count: 300))
        #endif
    }
}
