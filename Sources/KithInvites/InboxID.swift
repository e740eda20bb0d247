import Crypto
import KithCanonical

/// A 32-byte XMTP inbox id, the `creator_inbox_id` of an invite; written as 64 lowercase hex characters.
public struct InboxID: Sendable, Hashable, CustomStringConvertible {
    /// The 32 raw bytes.
    public let bytes: [UInt8]

    /// Wraps 32 raw bytes.
    ///
    /// - Throws: ``InviteError/invalidInboxID(bytes:)`` for any other length.
    public init<Bytes: Collection>(bytes input: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let raw = Array(input)
        guard raw.count == InviteLimits.inboxIDBytes else { throw .invalidInboxID(bytes: raw.count) }
        bytes = raw
    }

    init(uncheckedBytes: [UInt8]) {
        bytes = uncheckedBytes
    }

    /// Parses 64 hex characters (either case).
    ///
    /// - Throws: ``InviteError/invalidInboxID(bytes:)`` unless `hex` is exactly 64 hex characters.
    public init(hex: String) throws(InviteError) {
        guard let raw = Self.decodeHex(Array(hex.utf8)) else { throw .invalidInboxID(bytes: hex.utf8.count) }
        try self.init(bytes: raw)
    }

    /// The inbox id libxmtp assigns to the first signer `publicKey` with `nonce`:
    /// `sha256_hex("0x" + lowercase_hex(address) + decimal(nonce))`.
    public init(owner publicKey: InvitePublicKey, nonce: UInt64) {
        let text = "0x" + Self.lowercaseHex(publicKey.address) + String(nonce)
        bytes = Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// The 64-character lowercase hex text: the form used in the token's HKDF info and AAD, and in DMs.
    public var hex: String { Self.lowercaseHex(bytes) }

    /// The lowercase hex text.
    public var description: String { hex }

    /// The nonce (0, then 1) with which `publicKey` derives this inbox id, compared in constant time; `nil` when
    /// neither does (the signer is not the inbox's first signer, or the invite is forged).
    public func bindingNonce(for publicKey: InvitePublicKey) -> UInt64? {
        var found: UInt64?
        for nonce in InviteLimits.bindingNonces where found == nil {
            if ConstantTime.equals(InboxID(owner: publicKey, nonce: nonce).bytes, bytes) { found = nonce }
        }
        return found
    }

    /// True when `publicKey` derives this inbox id with nonce 0 or 1.
    public func isOwned(by publicKey: InvitePublicKey) -> Bool {
        bindingNonce(for: publicKey) != nil
    }

    static func lowercaseHex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes exactly 64 hex characters; `nil` otherwise.
    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        guard text.count == InviteLimits.inboxIDBytes * 2 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(InviteLimits.inboxIDBytes)
        var index = 0
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
