import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

@Suite struct ContentTests {
    typealias F = FeedFixtures
    let hash = Base64URL.encode([UInt8](repeating: 3, count: 32))
    let messageID = Base64URL.encode([UInt8](repeating: 4, count: 32))

    func parse(_ json: String, as type: String? = nil) throws -> Content {
        let object = try #require(try CanonicalJSON.parse(Array(json.utf8)).objectValue)
        let envelopeType = type ?? object["type"]?.stringValue ?? ""
        return try Content.parse(Array(json.utf8), envelopeType: envelopeType)
    }

    func code(_ json: String, as type: String? = nil) -> String? {
        F.code { _ = try parse(json, as: type) }
    }

    @Test func postRoundTripsCanonically() throws {
        let post = Post(body: "Grüße 🌏", attachments: [hash], replyTo: try MessageID(messageID), mentions: [F.bob.feedID])
        let bytes = try Content.post(post).canonicalBytes()
        #expect(try Content.parse(bytes, envelopeType: "post") == .post(post))
        #expect(CanonicalJSON.serialize(try CanonicalJSON.parse(bytes)) == bytes)
    }

    @Test func specExamplesParse() throws {
        let post = try parse(#"{"type":"post","body":"Just shipped the BLE sync handshake. Range is about 8m through walls.","attachments":[],"reply_to":null,"mentions":[]}"#)
        guard case .post(let p) = post else { Issue.record("not a post"); return }
        #expect(p.replyTo == nil && p.attachments.isEmpty)
        _ = try parse(#"{"type":"reaction","target_message":"\#(messageID)","emoji":"👍"}"#)
        _ = try parse(#"{"type":"profile_update","display_name":"Alice","avatar_hash":"\#(hash)"}"#)
        _ = try parse(#"{"type":"tombstone","target_message":"\#(messageID)","reason":"retracted"}"#)
        _ = try parse(#"{"type":"group_event","group_id":"\#(hash)","event":"add_member","mls_message":"AAEC"}"#)
    }

    @Test func bodyLimitCountsUnicodeScalars() throws {
        let maxASCII = String(repeating: "a", count: 2000)
        _ = try Content.post(Post(body: maxASCII)).canonicalBytes()
        let maxCJK = String(repeating: "東", count: 2000)  // 6,000 UTF-8 bytes, 2,000 scalars: allowed
        _ = try Content.post(Post(body: maxCJK)).canonicalBytes()
        #expect(F.code { _ = try Content.post(Post(body: maxASCII + "a")).canonicalBytes() } == "invalid_content")
        #expect(TextLength.scalars("e\u{301}") == 2)
    }

    @Test func postLimits() {
        let five = Array(repeating: "\"\(hash)\"", count: 5).joined(separator: ",")
        #expect(code(#"{"type":"post","body":"x","attachments":[\#(five)]}"#) == "invalid_content")
        #expect(code(#"{"type":"post","body":"x","attachments":["short"]}"#) == "invalid_content")
        #expect(code(#"{"type":"post","body":"x","reply_to":"nope"}"#) == "invalid_content")
        #expect(code(#"{"type":"post","body":"x","mentions":[1]}"#) == "invalid_content")
        #expect(code(#"{"type":"post"}"#) == "invalid_content")
        #expect(code(#"{"type":"post","body":7}"#) == "invalid_content")
    }

    @Test func unknownFieldsAreIgnoredAndMissingOptionalsAreNull() throws {
        let content = try parse(#"{"type":"post","body":"hi","future_field":{"x":[1,2]}}"#)
        #expect(content == .post(Post(body: "hi")))
    }

    @Test func typeMismatchIsAHardError() {
        #expect(code(#"{"type":"post","body":"hi"}"#, as: "reaction") == "content_type_mismatch")
        #expect(code(#"{"body":"hi"}"#, as: "post") == "invalid_content")
    }

    @Test func unknownTypesAreKeptWhole() throws {
        let content = try parse(#"{"type":"poll","options":["a","b"]}"#)
        guard case .unknown(let type, let object) = content else { Issue.record("expected unknown"); return }
        #expect(type == "poll" && object["options"] != nil && !content.isKnown)
    }

    @Test(arguments: ["👍", "❤️", "👍🏽", "🏳️‍🌈", "🇩🇪", "1️⃣", "1\u{20E3}", "🧑🏽\u{200D}🚀", "©"])
    func validEmoji(_ emoji: String) {
        #expect(Reaction.isSingleEmoji(emoji), "\(emoji)")
    }

    @Test(arguments: [
        "", "a", "👍👍", "👨‍👩‍👧", "👨‍👩‍👧‍👦", "ok", "1", "#", "👍\u{200D}", "\u{200D}👍", "👍🏽🏽", "❤\u{FE0F}\u{FE0F}",
        "a\u{20E3}", "\u{1F1E9}", "\u{1F1E9}\u{1F1EA}\u{1F1EB}", "👍\u{E0067}",
    ])
    func invalidEmoji(_ emoji: String) {
        #expect(!Reaction.isSingleEmoji(emoji), "\(emoji)")
    }

    /// The frozen table (Unicode 17.0) agrees with the standard library on every scalar the
    /// library dates 17.0 or earlier: a toolchain whose data changed for those would fail here,
    /// while scalars of later versions never change a reaction's verdict.
    @Test func emojiTableIsFrozenAtItsUnicodeVersion() {
        #expect(EmojiTable.unicodeVersion == "17.0")
        var disagreements: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, (age.major, age.minor) <= (17, 0) else { continue }
            if scalar.properties.isEmoji != EmojiTable.isEmoji(value) { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(8).map { String($0, radix: 16) })")
    }

    @Test func profileAndIntroductionLimits() {
        let name65 = String(repeating: "n", count: 65)
        #expect(code(#"{"type":"profile_update","display_name":"\#(name65)"}"#) == "invalid_content")
        #expect(code(#"{"type":"profile_update","display_name":null,"avatar_hash":"x"}"#) == "invalid_content")
        let dh = Base64URL.encode([UInt8](repeating: 1, count: 32))
        let pq = Base64URL.encode([UInt8](repeating: 2, count: 1184))
        let note257 = String(repeating: "n", count: 257)
        #expect(code(#"{"type":"contact_introduction","introduced_feed_id":"\#(F.bob.feedID)","introduced_dh_key":"\#(dh)","introduced_pq_key":"\#(pq)","note":"\#(note257)"}"#) == "invalid_content")
        #expect(code(#"{"type":"contact_introduction","introduced_feed_id":"\#(F.bob.feedID)","introduced_dh_key":"\#(dh)","introduced_pq_key":"\#(dh)"}"#) == "invalid_content")
        #expect(code(#"{"type":"contact_introduction","introduced_feed_id":"\#(F.bob.feedID)","introduced_dh_key":"\#(dh)","introduced_pq_key":"\#(pq)"}"#) == nil)
    }

    @Test func groupTreeOffersRoundTripAndNeedThirtyTwoByteFields() throws {
        let offer = GroupTreeOffer(groupID: hash, blob: messageID, key: hash)
        let bytes = try Content.groupTreeOffer(offer).canonicalBytes()
        #expect(try Content.parse(bytes, envelopeType: "mls_group_tree") == .groupTreeOffer(offer))
        #expect(Content.isKnownType("mls_group_tree"))
        let short = Base64URL.encode([UInt8](repeating: 1, count: 31))
        for json in [
            #"{"type":"mls_group_tree","group_id":"\#(short)","blob":"\#(hash)","key":"\#(hash)"}"#,
            #"{"type":"mls_group_tree","group_id":"\#(hash)","blob":"\#(short)","key":"\#(hash)"}"#,
            #"{"type":"mls_group_tree","group_id":"\#(hash)","blob":"\#(hash)"}"#,
            #"{"type":"mls_group_tree","group_id":"\#(hash)","blob":"\#(hash)","key":7}"#,
        ] {
            #expect(code(json) == "invalid_content")
        }
    }

    @Test func enumeratedReasonsAndEvents() {
        #expect(code(#"{"type":"tombstone","target_message":"\#(messageID)","reason":"boredom"}"#) == "invalid_content")
        #expect(code(#"{"type":"group_event","group_id":"\#(hash)","event":"dance","mls_message":"AAEC"}"#) == "invalid_content")
        #expect(code(#"{"type":"group_event","group_id":"\#(hash)","event":"create","mls_message":""}"#) == "invalid_content")
        let key = Base64URL.encode([UInt8](repeating: 1, count: 32))
        let pq = Base64URL.encode([UInt8](repeating: 2, count: 1184))
        #expect(code(#"{"type":"key_rotation","new_identity_key":"\#(key)","new_dh_key":"\#(key)","new_pq_key":"\#(pq)","previous_key_sig":null,"reason":"device_migration"}"#) == nil)
        #expect(code(#"{"type":"key_rotation","new_identity_key":"\#(key)","new_dh_key":"\#(key)","new_pq_key":"\#(pq)","previous_key_sig":"\#(key)"}"#) == "invalid_content")
        #expect(code(#"{"type":"key_rotation","new_identity_key":"\#(key)","new_dh_key":"\#(key)","new_pq_key":"\#(pq)","reason":"whim"}"#) == "invalid_content")
    }

    @Test func contentMustBeAnObjectOfBoundedJSON() {
        #expect(F.code { _ = try Content.parse(Array("[]".utf8), envelopeType: "post") } == "invalid_content")
        #expect(F.code { _ = try Content.parse(Array("{\"type\":\"post\",\"body\":1.5}".utf8), envelopeType: "post") } == "invalid_content")
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(F.code { _ = try Content.parse(Array("{\"type\":\"x\",\"d\":\(deep)}".utf8), envelopeType: "x") } == "invalid_content")
    }
}
