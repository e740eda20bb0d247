import KithCanonical
import Testing
@testable import KithFeed

/// `invite_join_request` and `invite_join_error`: round trips and bounds.
struct InviteJoinContentTests {
    static func parse(_ json: String, _ type: String) throws(FeedError) -> Content {
        try Content.parse(Array(json.utf8), envelopeType: type)
    }

    @Test func bothRoundTripCanonically() throws {
        let request = Content.inviteJoinRequest(InviteJoinRequest(invite: "CodeCode*Code", keyPackageBytes: [1, 2, 3]))
        #expect(try Content.parse(try request.canonicalBytes(), envelopeType: "invite_join_request") == request)
        let error = Content.inviteJoinError(InviteJoinError(tag: "AbCdEf0123", error: "invite_used", reason: "used"))
        #expect(try Content.parse(try error.canonicalBytes(), envelopeType: "invite_join_error") == error)
        #expect(Content.isKnownType("invite_join_request") && Content.isKnownType("invite_join_error"))
    }

    @Test func requestsOutOfBoundsAreRefused() {
        let kp = Base64URL.encode([UInt8](repeating: 1, count: 10))
        #expect(throws: FeedError.self) { try Self.parse(#"{"invite":"","key_package":"\#(kp)","type":"invite_join_request"}"#, "invite_join_request") }
        #expect(throws: FeedError.self) {
            try Self.parse(#"{"invite":"a b","key_package":"\#(kp)","type":"invite_join_request"}"#, "invite_join_request")
        }
        let long = String(repeating: "A", count: InviteJoinRequest.maxInviteCharacters + 1)
        #expect(throws: FeedError.self) {
            try Self.parse(#"{"invite":"\#(long)","key_package":"\#(kp)","type":"invite_join_request"}"#, "invite_join_request")
        }
        let big = Base64URL.encode([UInt8](repeating: 1, count: KeyPackageOffer.maxBytes + 1))
        #expect(throws: FeedError.self) {
            try Self.parse(#"{"invite":"abc","key_package":"\#(big)","type":"invite_join_request"}"#, "invite_join_request")
        }
        #expect(throws: FeedError.self) { try Self.parse(#"{"invite":"abc","type":"invite_join_request"}"#, "invite_join_request") }
    }

    @Test func errorsAreBoundedAndUnknownKindsReadAsExpired() throws {
        let parsed = try Self.parse(#"{"error":"something_new","tag":"AbCdEf0123","type":"invite_join_error"}"#, "invite_join_error")
        #expect(parsed == .inviteJoinError(InviteJoinError(tag: "AbCdEf0123", error: "conversation_expired")))
        let reason = String(repeating: "r", count: InviteJoinError.maxReasonScalars + 1)
        #expect(throws: FeedError.self) {
            try Self.parse(#"{"error":"generic_failure","reason":"\#(reason)","tag":"t","type":"invite_join_error"}"#, "invite_join_error")
        }
        #expect(throws: FeedError.self) { try Self.parse(#"{"error":"generic_failure","tag":"","type":"invite_join_error"}"#, "invite_join_error") }
    }
}
