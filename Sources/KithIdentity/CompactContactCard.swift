import Crypto
import Foundation
import KithCanonical
import KithEd25519

/// The small form of a contact card, for QR codes: the identity and dh keys, a name, a commitment to one full
/// ``ContactCard`` and a signature. Scanning it gives a pending contact; the full card (1,460 bytes, with the
/// ML-KEM key, the signed prekey and any later field) arrives over the first secure link, NFC or a file and must
/// match the commitment (``complete(with:)``).
///
/// Binary layout, version 1 (docs/contacts.md, "Compact card"):
///
///     version u8 = 1 | flags u8 (bit 0: original identity key present; other bits zero)
///     | identity_key 32 | dh_key 32 | [original_identity_key 32]
///     | commitment 32 | name_length u8 | name (UTF-8, at most 64 bytes)
///     | signature 64
///
/// `commitment` = SHA-256("Kith_CardCommitment_v1" || the full card's encoded bytes), so it covers every byte of
/// the full card whatever fields later versions add. `signature` = Ed25519(identity_key, "Kith_CompactCard_v1" ||
/// every preceding byte). The text form is `KC1:` followed by unpadded uppercase base32 (QR alphanumeric mode).
public struct CompactContactCard: Sendable, Hashable {
    /// The only version this build reads and writes.
    public static let currentVersion: UInt8 = 1
    /// The text form's prefix (uppercase, so the whole text stays in the QR alphanumeric set).
    public static let textPrefix = "KC1:"
    /// Longest name carried, in bytes of UTF-8 (a longer card name is cut at a character boundary).
    public static let maxNameBytes = 64
    /// Largest encoded compact card: every optional field present and the longest name.
    public static let maxBytes = 2 + 32 * 4 + 1 + maxNameBytes + 64
    /// Domain separation prefix of the signature.
    public static let signatureLabel: [UInt8] = Array("Kith_CompactCard_v1".utf8)
    /// Domain separation prefix of the commitment.
    public static let commitmentLabel: [UInt8] = Array("Kith_CardCommitment_v1".utf8)

    private static let originalKeyFlag: UInt8 = 0x01

    /// The holder's feed id (SHA-256 of the original identity key on a rotated identity's card, else of the identity key).
    public let feedID: FeedID
    /// The holder's Ed25519 identity key.
    public let identityKey: Curve25519.Signing.PublicKey
    /// The holder's X25519 dh key.
    public let dhKey: Curve25519.KeyAgreement.PublicKey
    /// The feed's original identity key when the holder's keys rotated.
    public let originalIdentityKey: Curve25519.Signing.PublicKey?
    /// SHA-256 over the commitment label and the full card's bytes.
    public let commitment: [UInt8]
    /// The name the holder suggests (possibly cut short from the full card's name).
    public let displayName: String
    /// The exact encoded bytes.
    public let encoded: [UInt8]

    /// The text form: `KC1:` and unpadded uppercase base32.
    public var text: String { Self.textPrefix + Base32.encode(encoded) }

    public static func == (lhs: CompactContactCard, rhs: CompactContactCard) -> Bool { lhs.encoded == rhs.encoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    /// The commitment to `card`'s encoded bytes.
    public static func commitment(to card: ContactCard) -> [UInt8] {
        Array(SHA256.hash(data: commitmentLabel + card.encoded))
    }

    /// True when `text` (whitespace around it ignored) has the compact card's prefix.
    public static func looksCompact(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(textPrefix)
    }

    // MARK: Creating

    /// Makes and signs the compact form of `card`, which must be `identity`'s own card.
    public static func create(identity: Identity, card: ContactCard) throws(CompactContactCardError) -> CompactContactCard {
        guard card.publicKeys.identityKey.rawRepresentation == identity.publicKeys.identityKey.rawRepresentation else {
            throw .keyMismatch("identity key (the card is not this identity's)")
        }
        var writer = ByteWriter(capacity: maxBytes)
        writer.write(currentVersion)
        let original = card.originalIdentityKey
        writer.write(original == nil ? 0 : originalKeyFlag)
        writer.write(bytes: card.publicKeys.identityKey.rawRepresentation)
        writer.write(bytes: card.publicKeys.dhKey.rawRepresentation)
        if let original { writer.write(bytes: original.rawRepresentation) }
        writer.write(bytes: commitment(to: card))
        let name = Array(card.displayName.prefix(utf8Bytes: maxNameBytes).utf8)
        writer.write(UInt8(name.count))
        writer.write(bytes: name)
        let signature: [UInt8]
        do {
            signature = try identity.sign(signatureLabel + writer.bytes)
        } catch {
            throw .signingFailed(error.description)
        }
        writer.write(bytes: signature)
        return try decode(writer.bytes)
    }

    // MARK: Reading

    /// Parses the text form and verifies the compact card (structure, keys, signature).
    public init(text: String) throws(CompactContactCardError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.textPrefix) else { throw .invalidText("missing the \(Self.textPrefix) prefix") }
        let body = String(trimmed.dropFirst(Self.textPrefix.count))
        guard body.utf8.count <= Base32.encodedLength(of: Self.maxBytes) else { throw .tooLarge(body.utf8.count * 5 / 8) }
        let bytes: [UInt8]
        do { bytes = try Base32.decode(body) } catch { throw .invalidText(error.description) }
        self = try Self.decode(bytes)
    }

    /// The `dh_key` field of an encoded compact card, read through the structure only, **without** verifying anything:
    /// for finding, among stored cards, the one a link key names before verifying that one alone. Nil when the bytes
    /// are too short or not version 1.
    public static func unverifiedDHKey(of bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= maxBytes else { return nil }
        var reader = ByteReader(bytes)
        guard (try? reader.readUInt8()) == currentVersion, (try? reader.readUInt8()) != nil, (try? reader.readBytes(32)) != nil else {
            return nil
        }
        return try? reader.readBytes(32)
    }

    /// Decodes and verifies the binary form (structure, keys, signature).
    public static func decode(_ bytes: [UInt8]) throws(CompactContactCardError) -> CompactContactCard {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes.count) }
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == currentVersion else { throw CompactContactCardError.unknownVersion(version) }
            let flags = try reader.readUInt8()
            guard flags & ~originalKeyFlag == 0 else {
                throw CompactContactCardError.invalidField("flags", reason: "unknown bits set (0x\(String(flags, radix: 16)))")
            }
            let identityRaw = try reader.readBytes(32)
            let dhRaw = try reader.readBytes(32)
            var originalRaw: [UInt8]?
            if flags & originalKeyFlag != 0 { originalRaw = try reader.readBytes(32) }
            let commitment = try reader.readBytes(32)
            let nameLength = Int(try reader.readUInt8())
            guard nameLength <= maxNameBytes else {
                throw CompactContactCardError.invalidField("name", reason: "\(nameLength) bytes; at most \(maxNameBytes)")
            }
            let nameBytes = try reader.readBytes(nameLength)
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw CompactContactCardError.invalidField("name", reason: "not valid UTF-8")
            }
            let signedLength = reader.offset
            let signature = try reader.readBytes(64)
            try reader.expectEnd()

            let identityKey = try strictSigningKey(identityRaw, what: "identity key")
            var original: Curve25519.Signing.PublicKey?
            if let originalRaw { original = try strictSigningKey(originalRaw, what: "original identity key") }
            let dhKey: Curve25519.KeyAgreement.PublicKey
            do { dhKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: dhRaw) } catch {
                throw CompactContactCardError.invalidKey("dh key")
            }
            guard identityKey.isValidStrictSignature(signature, for: signatureLabel + bytes[0..<signedLength]) else {
                throw CompactContactCardError.badSignature
            }
            return CompactContactCard(
                feedID: FeedID(identityKey: original ?? identityKey), identityKey: identityKey, dhKey: dhKey,
                originalIdentityKey: original, commitment: commitment, displayName: name, encoded: bytes)
        } catch let error as CompactContactCardError {
            throw error
        } catch let error as ByteReaderError {
            throw .malformed(error.description)
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// Checks that `card` is the full card this compact card commits to (constant-time comparison) and names the
    /// same keys and feed, and returns it.
    ///
    /// - Throws: ``CompactContactCardError/commitmentMismatch`` or ``CompactContactCardError/keyMismatch(_:)``.
    public func complete(with card: ContactCard) throws(CompactContactCardError) -> ContactCard {
        guard ConstantTime.equals(Self.commitment(to: card), commitment) else { throw .commitmentMismatch }
        guard card.publicKeys.identityKey.rawRepresentation == identityKey.rawRepresentation else { throw .keyMismatch("identity key") }
        guard card.publicKeys.dhKey.rawRepresentation == dhKey.rawRepresentation else { throw .keyMismatch("dh key") }
        guard card.feedID == feedID else { throw .keyMismatch("feed id") }
        return card
    }

    private init(
        feedID: FeedID, identityKey: Curve25519.Signing.PublicKey, dhKey: Curve25519.KeyAgreement.PublicKey,
        originalIdentityKey: Curve25519.Signing.PublicKey?, commitment: [UInt8], displayName: String, encoded: [UInt8]
    ) {
        self.feedID = feedID
        self.identityKey = identityKey
        self.dhKey = dhKey
        self.originalIdentityKey = originalIdentityKey
        self.commitment = commitment
        self.displayName = displayName
        self.encoded = encoded
    }

    private static func strictSigningKey(_ raw: [UInt8], what: String) throws(CompactContactCardError) -> Curve25519.Signing.PublicKey {
        do {
            try StrictEd25519.validatePublicKey(raw)
            return try Curve25519.Signing.PublicKey(rawRepresentation: raw)
        } catch {
            throw .invalidKey(what)
        }
    }
}
