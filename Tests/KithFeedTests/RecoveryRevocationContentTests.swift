import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

/// `recovery_revoke` content (docs/FEED-FORMAT.md section 4): its fields are bounded and its canonical form round-trips.
@Suite struct RecoveryRevocationContentTests {
    static let owner = Base64URL.encode([UInt8](repeating: 7, count: 32))

    static func parse(_ json: String) throws(FeedError) -> Content {
        try Content.parse(Array(json.utf8), envelopeType: "recovery_revoke")
    }

    @Test func aWellFormedRevocationRoundTrips() throws {
        let feed = try FeedID(Self.owner)
        let content = Content.recoveryRevocation(RecoveryRevocation(owner: feed, setID: String(repeating: "0f", count: 16), generation: 3))
        let bytes = try content.canonicalBytes()
        #expect(try Content.parse(bytes, envelopeType: "recovery_revoke") == content)
        #expect(Content.isKnownType("recovery_revoke"))
    }

    @Test func outOfBoundFieldsAreRefused() throws {
        let setID = String(repeating: "0f", count: 16)
        for json in [
            #"{"generation":0,"owner":"\#(Self.owner)","set_id":"\#(setID)","type":"recovery_revoke"}"#,
            #"{"generation":4294967296,"owner":"\#(Self.owner)","set_id":"\#(setID)","type":"recovery_revoke"}"#,
            #"{"generation":"1","owner":"\#(Self.owner)","set_id":"\#(setID)","type":"recovery_revoke"}"#,
            #"{"generation":1,"owner":"\#(Self.owner)","set_id":"\#(setID.uppercased())","type":"recovery_revoke"}"#,
            #"{"generation":1,"owner":"\#(Self.owner)","set_id":"0f","type":"recovery_revoke"}"#,
            #"{"generation":1,"owner":"someone","set_id":"\#(setID)","type":"recovery_revoke"}"#,
            #"{"generation":1,"set_id":"\#(setID)","type":"recovery_revoke"}"#,
        ] {
            #expect(throws: FeedError.self) { _ = try Self.parse(json) }
        }
    }
}
