import KithIdentity
import KithInvites

/// An invite a joiner who never met its creator can use, checked before anything is sent
/// (``Account/Invites/prepareStrangerJoin(_:)``): it reads, has not expired, keeps Kith's bounds, and carries the creator's
/// compact card, whose signature holds and whose feed id is the invite's `creator_inbox_id`.
public struct StrangerInvite: Sendable {
    /// The decoded invite and what could be checked of it.
    public let inspection: InviteInspection
    /// The invite code (the link without its URL form).
    public let code: String
    /// The creator's compact card, verified.
    public let creatorCard: CompactContactCard
    /// Where the creator answers (a `kith serve` URL), when the invite says.
    public let server: String?
    /// The rendezvous join code the creator offers on ``server``.
    public let joinCode: String?
}
