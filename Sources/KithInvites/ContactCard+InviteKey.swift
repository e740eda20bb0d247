import KithIdentity

extension ContactCard {
    /// The holder's invite key from extension `0x0002` (33-byte compressed secp256k1), covered by the card's
    /// Ed25519 signature: a joiner who holds the card checks an invite's signer against it. `nil` on cards made before
    /// invites (or by other builds) and when the value is not a valid compressed key.
    public var invitePublicKey: InvitePublicKey? {
        guard let value = self.extension(ContactCardExtension.Kind.inviteKey)?.value, value.count == 33 else { return nil }
        return try? InvitePublicKey(value)
    }
}

extension ContactCardExtension {
    /// The extension that puts `key` on a contact card (type `0x0002`, 33-byte compressed form).
    public static func inviteKey(_ key: InvitePublicKey) -> ContactCardExtension {
        ContactCardExtension(type: Kind.inviteKey, value: key.compressed)
    }
}
