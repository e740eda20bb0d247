import KithCanonical

/// An invite code (Convos' "slug"): `base64url_nopad(frame)` with `*` after every 300 characters.
public enum InviteCode {
    /// The separator Convos inserts against iMessage link breaking.
    public static let separator: Character = "*"

    /// The code for a signed invite (compressed when smaller, then base64url, then separators).
    public static func encode(_ invite: SignedInvite) -> String {
        let text = Base64URL.encode(InviteFrame.pack(invite.serializedBytes()))
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / InviteLimits.separatorInterval)
        for (index, character) in text.enumerated() {
            if index > 0, index % InviteLimits.separatorInterval == 0 { out.append(separator) }
            out.append(character)
        }
        return out
    }

    /// Reads a code: checks length and alphabet, drops every `*`, decodes, unpacks the frame and parses.
    ///
    /// - Throws: ``InviteError/codeTooShort(characters:minimum:)``, ``InviteError/codeTooLong(characters:maximum:)``,
    ///   ``InviteError/invalidCodeCharacter(offset:)``, ``InviteError/invalidBase64URL``, and the errors of
    ///   ``InviteFrame/unpack(_:)`` and ``SignedInvite/init(serialized:)``.
    public static func decode(_ code: String) throws(InviteError) -> SignedInvite {
        let utf8 = Array(code.utf8)
        guard utf8.count <= InviteLimits.maxCodeCharacters else {
            throw .codeTooLong(characters: utf8.count, maximum: InviteLimits.maxCodeCharacters)
        }
        guard utf8.count >= InviteLimits.minCodeCharacters else {
            throw .codeTooShort(characters: utf8.count, minimum: InviteLimits.minCodeCharacters)
        }
        var stripped: [UInt8] = []
        stripped.reserveCapacity(utf8.count)
        for (offset, byte) in utf8.enumerated() {
            guard isCodeByte(byte) else { throw .invalidCodeCharacter(offset: offset) }
            if byte != UInt8(ascii: "*") { stripped.append(byte) }
        }
        let frame: [UInt8]
        do {
            frame = try Base64URL.decode(utf8: stripped)
        } catch {
            throw .invalidBase64URL
        }
        return try SignedInvite(serialized: InviteFrame.unpack(frame))
    }

    /// True when `text` has the shape of a bare code (Convos' paste rule: `[A-Za-z0-9_*-]`, at least 50
    /// characters); it may still fail to decode.
    public static func looksLikeCode(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.count >= InviteLimits.minCodeCharacters && utf8.count <= InviteLimits.maxCodeCharacters
            && utf8.allSatisfy(isCodeByte)
    }

    /// `[A-Za-z0-9_*-]`.
    static func isCodeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "*"):
            return true
        default:
            return false
        }
    }
}
