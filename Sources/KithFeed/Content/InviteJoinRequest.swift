import KithCanonical

/// Asks an invite's creator to add the sender to the invite's group (Kith extension type `invite_join_request`,
/// direct audience only; docs/INVITES.md, "Join flow").
///
/// ```json
/// {"invite":"<invite code, as in the link>","key_package":"<base64url of a TLS-encoded KeyPackage>","type":"invite_join_request"}
/// ```
///
/// Convos' `convos.org/join_request:1.0` carries the slug alone (an XMTP client adds members by inbox id); a Kith
/// creator adds with an MLS commit, so the request carries one KeyPackage made for the creator. This layer checks
/// sizes only; the creator runs the invite rules (KithInvites' `InviteJoinLadder`) and checks the KeyPackage.
public struct InviteJoinRequest: Sendable, Hashable {
    /// Longest invite code accepted in a request (a Kith invite code is about 250 characters).
    public static let maxInviteCharacters = 4096

    /// The invite code (Convos' slug), `*` separators allowed.
    public var invite: String
    /// The TLS-encoded KeyPackage, base64url.
    public var keyPackage: String

    /// Creates the content from an invite code and KeyPackage bytes.
    public init(invite: String, keyPackageBytes: [UInt8]) {
        self.invite = invite
        keyPackage = Base64URL.encode(keyPackageBytes)
    }

    /// The decoded KeyPackage bytes.
    public var keyPackageBytes: [UInt8] { (try? Base64URL.decode(keyPackage)) ?? [] }

    init(_ fields: ContentFields) throws(FeedError) {
        invite = try fields.requiredString("invite")
        guard !invite.isEmpty, invite.utf8.count <= Self.maxInviteCharacters,
              invite.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw fields.fail("'invite' must be 1...\(Self.maxInviteCharacters) printable ASCII characters")
        }
        keyPackage = try fields.requiredString("key_package")
        let maxBytes = KeyPackageOffer.maxBytes
        guard keyPackage.utf8.count <= (maxBytes + 2) / 3 * 4, let bytes = try? Base64URL.decode(keyPackage),
              !bytes.isEmpty, bytes.count <= maxBytes else {
            throw fields.fail("'key_package' must be base64url of 1...\(maxBytes) bytes")
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["invite"] = .string(invite)
        object["key_package"] = .string(keyPackage)
        return object
    }
}
