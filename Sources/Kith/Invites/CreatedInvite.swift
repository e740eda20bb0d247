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
    /// What `kith invite create` draws as a QR code: `KITH://QR/<BASE32>` (`InviteLink.kithQRText(code:)`), a smaller
    /// symbol than the link's (alphanumeric mode); it reads back as the same code. Nil only for a code that is not
    /// base64url, which an invite made here never is.
    public var qrText: String? { try? InviteLink.kithQRText(code: code) }
}
