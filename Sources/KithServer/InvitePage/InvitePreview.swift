import KithCanonical
import KithInvites

/// What the invite page shows about one invite: the public fields, the expiry state on the server's clock and the
/// outcome of the signature checks. Built from the code alone; nothing is stored.
struct InvitePreview: Sendable, Equatable {
    /// The invite's expiry, judged on the server's clock.
    enum Expiry: Sendable, Equatable {
        /// No expiry field.
        case none
        /// Valid until this Unix time (inclusive, as in Convos).
        case expiresAt(Int64)
        /// Expired at this Unix time.
        case expired(Int64)
    }

    /// What the signature proves.
    enum Signer: Sendable, Equatable {
        /// The signature recovers this secp256k1 key; `bindingNonce` is the nonce with which it owns the creator
        /// inbox id (Convos/XMTP), `nil` when it does not (a Kith invite names a Kith feed id there instead).
        case recovered(address: String, bindingNonce: UInt64?)
        /// No key can be recovered: the invite is forged or damaged.
        case unrecoverable(String)
    }

    let name: String?
    let description: String?
    let emoji: String?
    let hasImage: Bool
    let tag: String
    let creatorID: String
    let singleUse: Bool
    let legacyFormat: Bool
    let expiry: Expiry
    let conversationExpiry: Expiry
    let signer: Signer
    /// The code with `*` separators kept, as the links carry it.
    let code: String

    /// Reads the preview of `invite` (decoded from `code`) at `nowUnix`.
    init(invite: SignedInvite, code: String, nowUnix: Int64) {
        let payload = invite.payload
        name = payload.name
        description = payload.description
        emoji = payload.emoji
        hasImage = !(payload.imageURL ?? "").isEmpty
        tag = payload.tag
        creatorID = payload.creatorInboxID.hex
        singleUse = payload.expiresAfterUse
        legacyFormat = payload.format == .legacy
        expiry = Self.expiry(payload.expiresAtUnix, nowUnix: nowUnix)
        conversationExpiry = Self.expiry(payload.conversationExpiresAtUnix, nowUnix: nowUnix)
        do {
            let key = try invite.recoverSigner()
            signer = .recovered(address: "0x" + Hex.encode(key.address), bindingNonce: payload.creatorInboxID.bindingNonce(for: key))
        } catch {
            signer = .unrecoverable(error.description)
        }
        self.code = code
    }

    private static func expiry(_ unix: Int64?, nowUnix: Int64) -> Expiry {
        guard let unix else { return .none }
        return unix < nowUnix ? .expired(unix) : .expiresAt(unix)
    }

}
