import KithCanonical
import KithConvos
import KithGroups
import KithIdentity

/// Members and records shared by the metadata tests.
enum MetadataTestSupport {
    /// A deterministic member id: 32 bytes of `seed`.
    static func member(_ seed: UInt8) -> FeedID {
        // 32 bytes by construction.
        (try? FeedID(rawBytes: [UInt8](repeating: seed, count: 32))) ?? FeedID(ed25519PublicKey: [seed])
    }

    static let alice = member(0xA1)
    static let bob = member(0xB0)
    static let carol = member(0xC0)

    /// A three-member record with a valid tag and an expiry.
    static func threeMembers() throws -> ConversationMetadata {
        try ConversationMetadata(
            tag: ConversationTag("Tag0123456"),
            profiles: [
                MemberProfile(feedID: alice, name: "Alice", image: "https://example.org/a.png"),
                MemberProfile(feedID: bob, name: "Bob"),
                MemberProfile(feedID: carol, name: "Carol"),
            ],
            expiresAtUnix: 1_900_000_000, emoji: "🎈")
    }

    /// The protobuf inside an appData text.
    static func protobuf(of appData: String) throws -> [UInt8] {
        try AppDataFrame.unpack(Base64URL.decode(appData))
    }

    /// The frame (before base64url) of an appData text.
    static func frame(of appData: String) throws -> [UInt8] {
        try Base64URL.decode(appData)
    }

    /// appData text for raw protobuf bytes, uncompressed.
    static func appData(protobuf: [UInt8]) -> String {
        Base64URL.encode(protobuf)
    }
}
