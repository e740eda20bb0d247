import KithCanonical

/// Why a NanoTDF could not be read, written, encrypted or decrypted.
///
/// Every malformed input maps to one of these cases; the reader never traps.
public enum NanoTDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended inside `field`.
    case truncated(field: String, needed: Int, available: Int, offset: Int)
    /// The first 18 bits are not the NanoTDF magic `0100 1100 0011 0001 01`.
    case badMagic(bytes: [UInt8])
    /// The magic matched but the 6-bit version is neither 12 ("L1L") nor 13 ("L1M").
    case unsupportedVersion(UInt8)
    /// A resource locator's protocol nibble is not http (0), https (1), unreserved (2) or shared resource directory (0xF).
    case unknownProtocol(UInt8, field: String)
    /// A resource locator's identifier-size nibble is not 0 (none), 1 (2 bytes), 2 (8 bytes) or 3 (32 bytes).
    case unknownIdentifierSize(UInt8, field: String)
    /// A resource locator body is empty (the format requires 1 to 255 bytes).
    case emptyResourceLocator(field: String)
    /// A resource locator body or identifier does not fit its length field.
    case resourceLocatorTooLong(field: String, length: Int)
    /// A curve code is not secp256r1 (0), secp384r1 (1), secp521r1 (2) or secp256k1 (3).
    case unknownCurve(UInt8, field: String)
    /// Bits the format leaves unused are set (ECC and binding mode byte, bits 6..3).
    case reservedBitsSet(field: String, value: UInt8)
    /// The cipher nibble is not one of AES-256-GCM with a 64..128-bit tag (0x00-0x05).
    case unknownCipher(UInt8)
    /// The policy type byte is not remote (0), embedded plaintext (1), embedded encrypted (2) or encrypted with key access (3).
    case unknownPolicyType(UInt8)
    /// An embedded policy has no content.
    case emptyPolicy
    /// An embedded policy's content does not fit the 2-byte length field.
    case policyTooLarge(length: Int, maximum: Int)
    /// An encrypted policy's content is shorter than the tag the cipher requires.
    case policyShorterThanTag(length: Int, tagSize: Int)
    /// A compressed public key does not start with 0x02 or 0x03, has the wrong size, or is not a point on its curve.
    case invalidPublicKey(field: String)
    /// The policy binding does not have the shape its mode requires.
    case malformedPolicyBinding(reason: String)
    /// The payload length field is smaller than IV plus tag.
    case payloadLengthTooSmall(length: Int, minimum: Int)
    /// The plaintext does not fit the 3-byte payload length with the configured tag.
    case plaintextTooLarge(length: Int, maximum: Int)
    /// Bytes remain after the payload (and signature, if the header announces one).
    case trailingBytes(count: Int, offset: Int)
    /// The header announces a signature but none is present, or the reverse.
    case signatureMismatch
    /// The operation needs a curve this build cannot compute with (secp256k1).
    case unsupportedCurve(NanoTDF.Curve)
    /// The recipient key's curve differs from the header's ephemeral curve.
    case curveMismatch(expected: NanoTDF.Curve, actual: NanoTDF.Curve)
    /// The policy binding does not match the policy: the header was tampered with or the key is wrong.
    case policyBindingMismatch
    /// The AES-GCM tag of the payload or the encrypted policy did not verify: tampered data or wrong key.
    case authenticationFailed(field: String)
    /// The trailing ECDSA signature over header and payload did not verify.
    case invalidSignature
    /// The payload IV is all zero while the policy is encrypted under the same key (nonce reuse).
    case zeroPayloadIV
    /// The policy kind cannot be decrypted locally (remote, or encrypted under a separate policy key).
    case policyNotDecryptable
    /// A primitive from swift-crypto failed unexpectedly.
    case cryptoFailure(String)
    /// The header carries a recipient public key ("L1M") and none of the private keys given belongs to it.
    case recipientKeyNotHeld(recipientKey: [UInt8])
    /// No private key was given to decrypt with.
    case noDecryptionKey
    /// The dialect's readers cannot accept what was asked for (e.g. an encrypted policy for the Arkavo app).
    case unsupportedInDialect(dialect: String, reason: String)

    /// A sentence saying what went wrong and what to check.
    public var description: String {
        switch self {
        case .truncated(let field, let needed, let available, let offset):
            "NanoTDF truncated in \(field): needed \(needed) bytes at offset \(offset), only \(available) left"
        case .badMagic(let bytes):
            "not a NanoTDF: magic bytes \(bytes.map { String($0, radix: 16) }) (expected 4c 31 4c or 4c 31 4d)"
        case .unsupportedVersion(let version):
            "unsupported NanoTDF version \(version): Kith reads 12 (L1L) and 13 (L1M)"
        case .unknownProtocol(let value, let field):
            "unknown resource locator protocol 0x\(String(value, radix: 16)) in \(field)"
        case .unknownIdentifierSize(let value, let field):
            "unknown resource locator identifier size code \(value) in \(field)"
        case .emptyResourceLocator(let field):
            "empty resource locator body in \(field)"
        case .resourceLocatorTooLong(let field, let length):
            "resource locator field \(field) is \(length) bytes, more than its length field allows"
        case .unknownCurve(let value, let field):
            "unknown curve code \(value) in \(field)"
        case .reservedBitsSet(let field, let value):
            "reserved bits set in \(field): 0x\(String(value, radix: 16))"
        case .unknownCipher(let value):
            "unknown symmetric cipher code \(value) (expected 0-5)"
        case .unknownPolicyType(let value):
            "unknown policy type \(value) (expected 0-3)"
        case .emptyPolicy:
            "embedded policy content is empty"
        case .policyTooLarge(let length, let maximum):
            "policy content of \(length) bytes exceeds the maximum of \(maximum)"
        case .policyShorterThanTag(let length, let tagSize):
            "encrypted policy of \(length) bytes cannot hold its \(tagSize)-byte tag"
        case .invalidPublicKey(let field):
            "invalid compressed public key in \(field)"
        case .malformedPolicyBinding(let reason):
            "malformed policy binding: \(reason)"
        case .payloadLengthTooSmall(let length, let minimum):
            "payload length \(length) is below the minimum \(minimum) (IV + tag)"
        case .plaintextTooLarge(let length, let maximum):
            "plaintext of \(length) bytes exceeds the NanoTDF maximum of \(maximum)"
        case .trailingBytes(let count, let offset):
            "\(count) unexpected bytes after the NanoTDF at offset \(offset)"
        case .signatureMismatch:
            "the header's HAS_SIGNATURE flag does not match the presence of a signature"
        case .unsupportedCurve(let curve):
            "curve \(curve) is parsed but not supported for cryptography (use secp256r1, secp384r1 or secp521r1)"
        case .curveMismatch(let expected, let actual):
            "key is on \(actual) but the NanoTDF uses \(expected)"
        case .policyBindingMismatch:
            "policy binding does not match the policy (tampered header or wrong key)"
        case .authenticationFailed(let field):
            "AES-GCM authentication failed for \(field) (tampered data or wrong key)"
        case .invalidSignature:
            "the NanoTDF signature does not verify over header and payload"
        case .zeroPayloadIV:
            "payload IV 000000 is reserved for the encrypted policy (nonce reuse)"
        case .policyNotDecryptable:
            "this policy kind is not encrypted under the payload key"
        case .cryptoFailure(let what):
            "cryptographic primitive failed: \(what)"
        case .recipientKeyNotHeld(let key):
            "the header names recipient key \(Hex.encode(key)) and none of the given "
                + "private keys belongs to it: pass that key's private half with --key"
        case .noDecryptionKey:
            "no private key given to decrypt with"
        case .unsupportedInDialect(let dialect, let reason):
            "not possible in the \(dialect) dialect: \(reason)"
        }
    }
}
