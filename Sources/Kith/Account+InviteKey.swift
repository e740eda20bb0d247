import KithIdentity
import KithInvites

extension Account {
    /// This identity's invite key (secp256k1, derived from the device seed with ``KeyDerivation/inviteKey``; see
    /// docs/INVITES.md). Its public half is on the contact card (extension `0x0002`).
    func inviteSigningKey() throws(KithError) -> InviteSigningKey {
        do throws(InviteError) { return try InviteSigningKey(seed: deviceSeed) } catch { throw .invite(error) }
    }

    /// The inbox id this identity's invites carry as `creator_inbox_id`: its feed id's 32 bytes.
    public var inviteInboxID: InboxID { InboxID(feedID: feedID) }

    /// This identity's invite public key (the one its contact card carries).
    public func invitePublicKey() throws(KithError) -> InvitePublicKey { try inviteSigningKey().publicKey }
}
