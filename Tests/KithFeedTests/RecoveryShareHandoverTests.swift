import KithCanonical
import Testing
@testable import KithFeed

/// The `recovery_share` content (Kith, direct only): the size bound and the canonical form.
@Suite struct RecoveryShareHandoverTests {
    func parse(_ json: String) throws -> Content { try Content.parse(Array(json.utf8), envelopeType: "recovery_share") }

    @Test func roundTripsCanonically() throws {
        let handover = RecoveryShareHandover(shareBytes: [UInt8](repeating: 7, count: 93))
        let bytes = try Content.recoveryShare(handover).canonicalBytes()
        #expect(try Content.parse(bytes, envelopeType: "recovery_share") == .recoveryShare(handover))
        #expect(handover.shareBytes == [UInt8](repeating: 7, count: 93))
        #expect(Content.isKnownType("recovery_share"))
    }

    @Test func sharesOutsideTheBoundAreInvalidContent() {
        let largest = Base64URL.encode([UInt8](repeating: 1, count: RecoveryShareHandover.maxBytes))
        #expect((try? parse(#"{"share":"\#(largest)","type":"recovery_share"}"#)) != nil)
        let tooLarge = Base64URL.encode([UInt8](repeating: 1, count: RecoveryShareHandover.maxBytes + 1))
        for json in [#"{"share":"\#(tooLarge)","type":"recovery_share"}"#, #"{"share":"","type":"recovery_share"}"#,
                     #"{"share":"not base64!","type":"recovery_share"}"#, #"{"type":"recovery_share"}"#] {
            #expect(throws: FeedError.self) { try parse(json) }
        }
    }
}
