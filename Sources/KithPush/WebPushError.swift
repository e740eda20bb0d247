import KithCanonical

/// Why a Web Push message (RFC 8291 over RFC 8188 `aes128gcm`) could not be encrypted or decrypted.
///
/// Every case has a stable snake_case ``code`` and a one-line ``description`` that says what to fix.
/// Decryption reports which check failed without revealing anything about the key or plaintext.
public enum WebPushError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A P-256 public key (`p256dh` or the sender's `keyid`) is not a 65-byte uncompressed point on the curve.
    case invalidPublicKey(String)
    /// A P-256 private key could not be used.
    case invalidPrivateKey
    /// The authentication secret is not exactly 16 bytes.
    case invalidAuthSecret(length: Int)
    /// The salt is not exactly 16 bytes.
    case invalidSalt(length: Int)
    /// The record size is below the RFC 8188 minimum of 18.
    case recordSizeTooSmall(UInt32)
    /// The padding length is negative.
    case invalidPadding(Int)
    /// The plaintext, its delimiter, its padding and the tag do not fit one record of the given size.
    case recordOverflow(needed: Int, recordSize: UInt32)
    /// The whole message would exceed, or exceeds, RFC 8030's 4096 bytes.
    case messageTooLarge(size: Int, limit: Int)
    /// The message ends inside the `aes128gcm` header.
    case truncatedHeader(String)
    /// The header's `keyid` is not the 65-byte sender public key RFC 8291 requires.
    case invalidKeyIDLength(Int)
    /// The ciphertext is shorter than a tag plus the padding delimiter.
    case ciphertextTooShort(Int)
    /// The ciphertext is longer than one record: RFC 8291 allows exactly one.
    case multipleRecords(ciphertextLength: Int, recordSize: UInt32)
    /// The AES-GCM tag does not verify: wrong keys, wrong auth secret or altered bytes.
    case authenticationFailed
    /// The decrypted record has no padding delimiter (it is all zeros).
    case missingPaddingDelimiter
    /// The record's delimiter is not 0x02, so it is not the last record (RFC 8188 §2).
    case notLastRecord(delimiter: UInt8)
    /// The key agreement or key derivation failed in the crypto library.
    case keyAgreementFailed

    /// The stable reason code.
    public var code: String {
        switch self {
        case .invalidPublicKey: "invalid_public_key"
        case .invalidPrivateKey: "invalid_private_key"
        case .invalidAuthSecret: "invalid_auth_secret"
        case .invalidSalt: "invalid_salt"
        case .recordSizeTooSmall: "record_size_too_small"
        case .invalidPadding: "invalid_padding"
        case .recordOverflow: "record_overflow"
        case .messageTooLarge: "message_too_large"
        case .truncatedHeader: "truncated_header"
        case .invalidKeyIDLength: "invalid_keyid_length"
        case .ciphertextTooShort: "ciphertext_too_short"
        case .multipleRecords: "multiple_records"
        case .authenticationFailed: "authentication_failed"
        case .missingPaddingDelimiter: "missing_padding_delimiter"
        case .notLastRecord: "not_last_record"
        case .keyAgreementFailed: "key_agreement_failed"
        }
    }

    /// A one-line explanation with the offending values.
    public var description: String {
        switch self {
        case .invalidPublicKey(let reason):
            "invalid P-256 public key: \(reason) (expected 65 bytes 0x04||x||y on the curve)"
        case .invalidPrivateKey:
            "invalid P-256 private key"
        case .invalidAuthSecret(let length):
            "auth secret is \(length) bytes; RFC 8291 requires exactly \(PushLimits.authSecretLength)"
        case .invalidSalt(let length):
            "salt is \(length) bytes; aes128gcm requires exactly \(PushLimits.saltLength)"
        case .recordSizeTooSmall(let size):
            "record size \(size) is below the minimum \(PushLimits.minRecordSize)"
        case .invalidPadding(let padding):
            "padding length \(padding) is negative"
        case .recordOverflow(let needed, let recordSize):
            "one record needs \(needed) bytes but the record size is \(recordSize); raise rs or send less"
        case .messageTooLarge(let size, let limit):
            "push message is \(size) bytes; the limit is \(limit) (RFC 8030 §7.2)"
        case .truncatedHeader(let reason):
            "aes128gcm header is truncated: \(reason)"
        case .invalidKeyIDLength(let length):
            "keyid is \(length) bytes; RFC 8291 requires the sender's \(PushLimits.publicKeyLength)-byte public key"
        case .ciphertextTooShort(let length):
            "ciphertext is \(length) bytes; at least \(PushLimits.tagLength + 1) are needed"
        case .multipleRecords(let length, let recordSize):
            "ciphertext of \(length) bytes spans more than one record of \(recordSize); RFC 8291 allows exactly one"
        case .authenticationFailed:
            "AES-GCM authentication failed: the message was altered or encrypted for other keys"
        case .missingPaddingDelimiter:
            "decrypted record has no padding delimiter"
        case .notLastRecord(let delimiter):
            "record delimiter is 0x\(String(delimiter, radix: 16)); a Web Push message's only record must end with 0x02"
        case .keyAgreementFailed:
            "P-256 key agreement failed"
        }
    }
}

extension WebPushError {
    /// Maps a header read failure.
    init(_ error: ByteReaderError) { self = .truncatedHeader(error.description) }
}
