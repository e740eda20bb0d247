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
        let text = "0x" + Hex.encode(publicKey.address) + String(nonce)
        bytes = Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// The 64-character lowercase hex text: the form used in the token's HKDF info and AAD, and in DMs.
    public var hex: String { Hex.encode(bytes) }

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

    /// Decodes exactly 64 hex characters; `nil` otherwise.
    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        guard text.count == InviteLimits.inboxIDBytes * 2 else { return nil }
        return Hex.decode(String(decoding: text, as: UTF8.self))
    }
}
