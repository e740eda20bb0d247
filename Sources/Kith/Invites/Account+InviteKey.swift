import Crypto
import KithIdentity
import KithInvites

extension Account {
    /// This identity's invite key (secp256k1, derived from the device seed with ``KeyDerivation/inviteKey``; see
    /// docs/INVITES.md). Its public half is on the contact card (extension `0x0002`).
    func inviteSigningKey() throws(KithError) -> InviteSigningKey {
        do throws(InviteError) { return try InviteSigningKey(seed: deviceSeed) } catch { throw .invite(error) }
    }
}

extension Account.Invites {
    /// The inbox id this identity's invites carry as `creator_inbox_id`: its feed id's 32 bytes.
    public var inboxID: InboxID { InboxID(feedID: account.feedID) }

    /// This identity's invite public key (the one its contact card carries).
    public func publicKey() throws(KithError) -> InvitePublicKey { try account.inviteSigningKey().publicKey }

    /// The secret behind a claimed invite join code made with `nonce`: `HMAC-SHA256(K, nonce)` with K derived from the
    /// device seed (`KeyDerivation.joinCodeClaimKey` in KithIdentity). The code commits to it and carries only the nonce, so
    /// `kith invite serve` proves the code is its own without any stored state; the secret never leaves this device
    /// except as the `claim` of a create on the invite's server (docs/INVITES.md, "Claimed join codes").
    public func joinCodeClaimSecret(nonce: [UInt8]) -> [UInt8] {
        let key = KeyDerivation.derive(KeyDerivation.joinCodeClaimKey, from: account.deviceSeed)
        return Array(HMAC<SHA256>.authenticationCode(for: nonce, using: key))
    }
}
