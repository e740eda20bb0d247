import Crypto
import KithCanonical

/// The encrypted conversation id an invite carries: `0x01 ‖ nonce(12) ‖ ChaCha20-Poly1305 ciphertext ‖ tag(16)`.
///
/// Key = HKDF-SHA256(IKM: the creator's 32-byte secp256k1 private key, salt: `"ConvosInviteV1"`,
/// info: `"inbox:" ‖ creatorInboxIdHex`, 32 bytes); AAD = the UTF-8 of the lowercase 64-character inbox-id hex.
/// Only the creator, who holds the key, can open it; the joiner never learns the conversation id.
public struct ConversationToken: Sendable, Hashable {
    /// The format version byte.
    public static let version: UInt8 = 0x01

    /// The HKDF salt.
    public static let salt = Array("ConvosInviteV1".utf8)

    /// The token bytes as carried in `InvitePayload.conversationToken`.
    public let bytes: [UInt8]

    /// Wraps carried token bytes after checking the size bounds and the version byte.
    ///
    /// - Throws: ``InviteError/tokenSizeOutOfRange(bytes:)`` or ``InviteError/unsupportedTokenVersion(_:)``.
    public init<Bytes: Collection>(bytes input: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let raw = Array(input)
        guard (InviteLimits.minTokenBytes...InviteLimits.maxTokenBytes).contains(raw.count) else {
            throw .tokenSizeOutOfRange(bytes: raw.count)
        }
        guard raw[0] == Self.version else { throw .unsupportedTokenVersion(raw[0]) }
        bytes = raw
    }

    /// Encrypts `conversationID` for `creator` (a random nonce unless one is given, for known-answer tests).
    ///
    /// - Throws: ``InviteError/conversationIDSizeOutOfRange(bytes:)`` for an empty or over-long id.
    public static func seal(
        conversationID: String, creatorKey: InviteSigningKey, creatorInboxID: InboxID, nonce: [UInt8]? = nil
    ) throws(InviteError) -> ConversationToken {
        let plaintext = try ConversationIDPacking.pack(conversationID)
        let key = Self.key(creatorKey: creatorKey, creatorInboxID: creatorInboxID)
        do {
            let chachaNonce = try nonce.map { try ChaChaPoly.Nonce(data: $0) } ?? ChaChaPoly.Nonce()
            let box = try ChaChaPoly.seal(
                plaintext, using: key, nonce: chachaNonce, authenticating: Array(creatorInboxID.hex.utf8))
            return try ConversationToken(bytes: [version] + Array(box.combined))
        } catch let error as InviteError {
            throw error
        } catch {
            throw .tokenSizeOutOfRange(bytes: nonce?.count ?? 0)
        }
    }

    /// Decrypts the conversation id; only the creator's key and inbox id open it.
    ///
    /// - Throws: ``InviteError/tokenAuthenticationFailed`` (wrong key, wrong inbox id or tampered bytes) or
    ///   ``InviteError/malformedTokenPlaintext``.
    public func open(creatorKey: InviteSigningKey, creatorInboxID: InboxID) throws(InviteError) -> String {
        let key = Self.key(creatorKey: creatorKey, creatorInboxID: creatorInboxID)
        let plaintext: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(combined: bytes[1...])
            plaintext = Array(try ChaChaPoly.open(box, using: key, authenticating: Array(creatorInboxID.hex.utf8)))
        } catch {
            throw .tokenAuthenticationFailed
        }
        return try ConversationIDPacking.unpack(plaintext)
    }

    /// HKDF-SHA256(IKM: private key, salt: "ConvosInviteV1", info: "inbox:" + hex, L: 32).
    static func key(creatorKey: InviteSigningKey, creatorInboxID: InboxID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: creatorKey.rawRepresentation),
            salt: salt,
            info: Array(("inbox:" + creatorInboxID.hex).utf8),
            outputByteCount: 32)
    }
}
