import KithGroups
import KithInvites

extension FuzzTarget {
    /// An invite as a link, a code or raw frame bytes: the slug, the DEFLATE frame, the signed
    /// protobuf (with Kith's field 1000), the signer recovery and Kith's bounds.
    static let invite = FuzzTarget(name: "invite", summary: "KithInvites links, codes, DEFLATE frames, protobuf payloads (field 1000), signatures") { input in
        if let text = FuzzProperty.text(input) {
            if let link = try? InviteLink(parsing: text) { _ = link }
            if let invite = try? InviteCode.decode(text) { InviteFuzz.check(invite) }
        }
        if let unpacked = try? InviteFrame.unpack(input), let invite = try? SignedInvite(serialized: unpacked) { InviteFuzz.check(invite) }
        if let invite = try? SignedInvite(serialized: input) { InviteFuzz.check(invite) }
        if let payload = try? InvitePayload(serialized: input) { _ = try? payload.checkKithBounds() }
    }

    /// Convos conversation metadata as it arrives in a group's appData (base64url, DEFLATE, protobuf).
    static let conversationMetadata = FuzzTarget(name: "conversation-metadata", summary: "KithGroups Convos appData (DEFLATE frame and protobuf)") { input in
        guard let text = FuzzProperty.text(input) else { return }
        _ = try? ConversationMetadata(appData: text)
    }
}

enum InviteFuzz {
    /// What Kith does with any invite it reads: recover the signer, check bounds, re-serialize.
    static func check(_ invite: SignedInvite) {
        _ = try? invite.recoverSigner()
        _ = try? invite.payload.checkKithBounds()
        let again = try? SignedInvite(serialized: invite.serializedBytes())
        FuzzProperty.require(again == invite, "a signed invite does not survive re-serialization")
    }
}
