/// Why an invite could not be made, read or trusted. Every case says what was wrong with the input.
public enum InviteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not an invite URL or code of a form Kith knows.
    case unrecognizedInput(String)
    /// A bare code shorter than ``InviteLimits/minCodeCharacters``.
    case codeTooShort(characters: Int, minimum: Int)
    /// A code longer than ``InviteLimits/maxCodeCharacters``.
    case codeTooLong(characters: Int, maximum: Int)
    /// A code character outside `[A-Za-z0-9_*-]`.
    case invalidCodeCharacter(offset: Int)
    /// The code is not valid base64url.
    case invalidBase64URL
    /// A `0x1F` frame shorter than its 5-byte header plus a body.
    case truncatedFrame(bytes: Int)
    /// The frame's declared size is 0 or above the limit.
    case declaredSizeOutOfRange(declared: Int, limit: Int)
    /// The frame claims a compression ratio above the limit (a decompression bomb).
    case compressionRatioTooHigh(declared: Int, compressedBytes: Int, limit: Int)
    /// The compressed body is neither raw nor zlib-wrapped DEFLATE, or is truncated.
    case corruptCompressedBody
    /// The body inflates to a different size than declared (`nil`: larger).
    case decompressedSizeMismatch(declared: Int, actual: Int?)
    /// The SignedInvite is larger than ``InviteLimits/maxSignedInviteBytes``.
    case signedInviteTooLarge(bytes: Int, limit: Int)
    /// The bytes are not a well-formed SignedInvite or InvitePayload protobuf.
    case malformedProtobuf(String)
    /// A required field is missing or empty.
    case missingField(String)
    /// A field has a size outside its bounds.
    case fieldSizeOutOfRange(field: String, bytes: Int)
    /// The creator inbox id is neither 32 raw bytes nor 64 hex characters.
    case invalidInboxID(bytes: Int)
    /// The tag is not 10 characters of `[A-Za-z0-9]` (when writing).
    case invalidTag(String)
    /// The signature is not 65 bytes.
    case invalidSignatureLength(Int)
    /// The recovery id is not 0...3.
    case invalidRecoveryID(UInt8)
    /// `s` is in the upper half of the group order (libsecp256k1 never writes that; a malleated copy).
    case highS
    /// No public key can be recovered from the signature (r or s out of range, or no point).
    case signatureRecoveryFailed
    /// The signature recovers a key other than the expected one.
    case signerMismatch
    /// The recovered signer does not derive the invite's creator inbox id with any tried nonce.
    case inboxBindingFailed
    /// A secp256k1 private key that is zero or not below the group order.
    case invalidPrivateKey
    /// A public key that is not a valid 33- or 65-byte secp256k1 point encoding.
    case invalidPublicKey
    /// libsecp256k1 or the system RNG failed while signing.
    case signingFailed
    /// The invite's `expiresAtUnix` has passed.
    case inviteExpired(expiresAtUnix: Int64)
    /// The conversation's `conversationExpiresAtUnix` (explode time) has passed.
    case conversationExpired(expiresAtUnix: Int64)
    /// The token's version byte is not `0x01`.
    case unsupportedTokenVersion(UInt8)
    /// The token is shorter than ``InviteLimits/minTokenBytes`` or longer than ``InviteLimits/maxTokenBytes``.
    case tokenSizeOutOfRange(bytes: Int)
    /// The token does not open with this key and inbox id (wrong creator, wrong key or tampered).
    case tokenAuthenticationFailed
    /// The decrypted plaintext is not a packed conversation id.
    case malformedTokenPlaintext
    /// A conversation id that is empty or longer than ``InviteLimits/maxConversationIDBytes`` bytes.
    case conversationIDSizeOutOfRange(bytes: Int)
    /// Kith's reach field (field 1000) is malformed or over its bounds.
    case invalidReach(String)
    /// The reach's card does not belong to the invite: its feed id is not `creator_inbox_id`, its invite key is not
    /// the signer, or the full card does not match the compact card's commitment.
    case reachMismatch(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .unrecognizedInput: return "not an invite link or code"
        case let .codeTooShort(count, minimum):
            return "invite code too short (\(count) characters, at least \(minimum) needed)"
        case let .codeTooLong(count, maximum): return "invite code too long (\(count) characters, at most \(maximum))"
        case let .invalidCodeCharacter(offset):
            return "invite code has a character outside A-Z a-z 0-9 - _ * at offset \(offset)"
        case .invalidBase64URL: return "invite code is not valid base64url"
        case let .truncatedFrame(bytes): return "compressed invite frame truncated (\(bytes) bytes)"
        case let .declaredSizeOutOfRange(declared, limit):
            return "compressed invite declares \(declared) bytes (must be 1...\(limit))"
        case let .compressionRatioTooHigh(declared, compressed, limit):
            return "compressed invite claims \(declared) bytes from \(compressed) (ratio above \(limit))"
        case .corruptCompressedBody: return "compressed invite body is not valid DEFLATE"
        case let .decompressedSizeMismatch(declared, actual):
            return "compressed invite inflates to \(actual.map(String.init) ?? "more than \(declared)") bytes, "
                + "declared \(declared)"
        case let .signedInviteTooLarge(bytes, limit): return "invite is \(bytes) bytes (limit \(limit))"
        case let .malformedProtobuf(what): return "invite is not a well-formed protobuf: \(what)"
        case let .missingField(field): return "invite has no \(field)"
        case let .fieldSizeOutOfRange(field, bytes): return "invite field \(field) has an invalid size (\(bytes) bytes)"
        case let .invalidInboxID(bytes):
            return "creator inbox id must be 32 bytes or 64 hex characters (got \(bytes) bytes)"
        case let .invalidTag(tag): return "tag \"\(tag)\" is not 10 characters of A-Z a-z 0-9"
        case let .invalidSignatureLength(count): return "signature must be 65 bytes (got \(count))"
        case let .invalidRecoveryID(id): return "signature recovery id \(id) is not 0...3"
        case .highS: return "signature has a high S value (malleated)"
        case .signatureRecoveryFailed: return "no signer can be recovered from the signature"
        case .signerMismatch: return "invite was not signed by the expected key"
        case .inboxBindingFailed: return "invite signer does not own the creator inbox id (tried nonces 0 and 1)"
        case .invalidPrivateKey: return "not a valid secp256k1 private key"
        case .invalidPublicKey: return "not a valid secp256k1 public key"
        case .signingFailed: return "signing the invite failed"
        case let .inviteExpired(at): return "invite expired at \(at) (Unix seconds)"
        case let .conversationExpired(at): return "conversation expired at \(at) (Unix seconds)"
        case let .unsupportedTokenVersion(version): return "conversation token version \(version) is not supported (want 1)"
        case let .tokenSizeOutOfRange(bytes): return "conversation token has an invalid size (\(bytes) bytes)"
        case .tokenAuthenticationFailed: return "conversation token does not open with this creator's key"
        case .malformedTokenPlaintext: return "conversation token plaintext is malformed"
        case let .conversationIDSizeOutOfRange(bytes):
            return "conversation id must be 1...\(InviteLimits.maxConversationIDBytes) bytes (got \(bytes))"
        case let .invalidReach(what): return "invite's reach field is invalid: \(what)"
        case let .reachMismatch(what): return "invite's creator card does not match the invite: \(what)"
        }
    }
}
