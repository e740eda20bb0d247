import KithInvites

/// An invite this identity made: the signed invite, its code and its links.
public struct CreatedInvite: Sendable, Equatable {
    /// The signed invite.
    public let invite: SignedInvite
    /// The invite code (Convos' slug).
    public let code: String

    /// Kith's app link, `kith://invite/<code>`.
    public var url: String { InviteLink.kithURL(code: code) }
    /// The link in Convos' web form (`https://popup.convos.org/v2?i=<code>`): Convos clients decode it, but only
    /// Kith can join through it (the creator adds with an MLS commit).
    public var convosURL: String { InviteLink.convosURL(code: code) }
}
