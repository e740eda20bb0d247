import KithIdentity

extension FuzzTarget {
    /// A full contact card as scanned or received (binary, and the base64url text form).
    static let contactCard = FuzzTarget(name: "contact-card", summary: "KithIdentity full contact card (binary and text)") { input in
        if let card = try? ContactCard.decode(input) {
            FuzzProperty.require(card.encoded == input, "a decoded card does not keep its bytes")
            let again = try? ContactCard(text: card.text)
            FuzzProperty.require(again == card, "a card does not survive its text form")
        }
        if let text = FuzzProperty.text(input) { _ = try? ContactCard(text: text) }
    }

    /// A compact contact card (QR and NFC form): binary, and the `KC1:` text form.
    static let compactCard = FuzzTarget(name: "compact-card", summary: "KithIdentity compact contact card (binary and KC1 text)") { input in
        if let card = try? CompactContactCard.decode(input) {
            FuzzProperty.require(card.encoded == input, "a decoded compact card does not keep its bytes")
            let again = try? CompactContactCard(text: card.text)
            FuzzProperty.require(again == card, "a compact card does not survive its text form")
        }
        _ = CompactContactCard.unverifiedDHKey(of: input)
        if let text = FuzzProperty.text(input) { _ = try? CompactContactCard(text: text) }
    }

    /// Messages of the card phase (a compact card completed over the secure link).
    static let cardPhase = FuzzTarget(name: "card-phase", summary: "KithIdentity card-phase messages") { input in
        guard let message = try? CardPhaseMessage(decoding: input) else { return }
        let again = try? CardPhaseMessage(decoding: message.encoded())
        FuzzProperty.require(again == message, "a card-phase message does not survive re-encoding")
    }

    /// The key vault file's layout (checked before any key derivation).
    static let vaultFile = FuzzTarget(name: "vault-file", summary: "KithIdentity key vault file layout and scrypt bounds") { input in
        guard let file = try? KeyVaultFile(parsing: input, path: "fuzz") else { return }
        FuzzProperty.require(file.parameters.isWithinBounds, "a vault with out-of-bounds scrypt parameters was accepted")
    }
}
