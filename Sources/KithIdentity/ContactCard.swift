import Crypto
import Foundation
import KithCanonical
import KithEd25519

/// A compact, signed, versioned contact card: what two people exchange in person (QR or NFC).
///
/// Binary layout, version 1 (all integers big-endian; docs/FEED-FORMAT.md section 11):
///
///     version u8 = 1 | feed_id 32 | identity_key 32 | dh_key 32 | pq_key 1184
///     | signed_prekey_id u32 | signed_prekey 32 | signed_prekey_sig 64
///     | created_at u64 (Unix seconds) | name_length u8 | display_name (UTF-8)
///     | extension_count u8 | extensions (type u16 | length u16 | value), ascending type
///     | signature 64
///
/// `signature` = Ed25519(identity_key, "Kith_ContactCard_v1" || every preceding byte).
/// `signed_prekey_sig` = Ed25519(identity_key, "Kith_SPK_v1" || uint32_be(id) || signed_prekey).
/// `feed_id` must equal SHA-256(identity_key), or, on the card of an identity whose keys rotated,
/// SHA-256 of the original key carried in extension 0x0004. The text form is unpadded base64url.
/// Decoding checks every rule, so a ``ContactCard`` value is always structurally valid and
/// authentic; ``checkAge(now:maxAge:)`` adds the freshness rule.
public struct ContactCard: Sendable, Hashable {
    /// The card format version.
    public let version: UInt8
    /// The holder's feed id.
    public let feedID: FeedID
    /// The holder's public keys (identity, dh, pq).
    public let publicKeys: PublicKeys
    /// Identifies the signed prekey (for later rotation).
    public let signedPrekeyID: UInt32
    /// The X25519 signed prekey (32 bytes).
    public let signedPrekey: [UInt8]
    /// Ed25519 signature of the identity key over the signed prekey.
    public let signedPrekeySignature: [UInt8]
    /// When the card was made (Unix seconds, the holder's clock).
    public let createdAt: Int64
    /// The name the holder suggests (at most 64 Unicode scalars; may be empty).
    public let displayName: String
    /// Extensions, ascending by type; unknown ones kept.
    public let extensions: [ContactCardExtension]
    /// The card signature.
    public let signature: [UInt8]
    /// The exact encoded bytes.
    public let encoded: [UInt8]

    /// The feed's original identity key when this is the card of a rotated identity.
    public var originalIdentityKey: Curve25519.Signing.PublicKey? {
        self.extension(ContactCardExtension.Kind.originalIdentityKey).flatMap {
            try? Curve25519.Signing.PublicKey(rawRepresentation: $0.value)
        }
    }

    /// The key whose SHA-256 is the feed id: the original key of a rotated identity, else the identity key.
    public var feedKey: Curve25519.Signing.PublicKey { originalIdentityKey ?? publicKeys.identityKey }

    /// The unpadded base64url text form for copy and paste.
    public var text: String { Base64URL.encode(encoded) }

    /// The extension of a given type, if present.
    public func `extension`(_ type: UInt16) -> ContactCardExtension? {
        extensions.first { $0.type == type }
    }

    public static func == (lhs: ContactCard, rhs: ContactCard) -> Bool { lhs.encoded == rhs.encoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    private init(
        version: UInt8, feedID: FeedID, publicKeys: PublicKeys, signedPrekeyID: UInt32, signedPrekey: [UInt8],
        signedPrekeySignature: [UInt8], createdAt: Int64, displayName: String, extensions: [ContactCardExtension],
        signature: [UInt8], encoded: [UInt8]
    ) {
        self.version = version
        self.feedID = feedID
        self.publicKeys = publicKeys
        self.signedPrekeyID = signedPrekeyID
        self.signedPrekey = signedPrekey
        self.signedPrekeySignature = signedPrekeySignature
        self.createdAt = createdAt
        self.displayName = displayName
        self.extensions = extensions
        self.signature = signature
        self.encoded = encoded
    }

    // MARK: Creating

    /// Makes and signs a card for `identity`.
    ///
    /// - Parameters:
    ///   - signedPrekey: the X25519 signed prekey; defaults to the identity's dh key, which is
    ///     Kith's signed prekey (spec 2.1).
    ///   - originalIdentityKey: for an identity whose keys rotated, the feed's original key: the
    ///     card then names the original feed and carries the key in extension 0x0004.
    public static func create(
        identity: Identity,
        displayName: String,
        createdAt: Int64,
        signedPrekeyID: UInt32 = 0,
        signedPrekey: Curve25519.KeyAgreement.PublicKey? = nil,
        extensions: [ContactCardExtension] = [],
        originalIdentityKey: Curve25519.Signing.PublicKey? = nil
    ) throws(ContactCardError) -> ContactCard {
        var extensions = extensions
        var feedID = identity.feedID
        if let originalIdentityKey = originalIdentityKey ?? (identity.isRotated ? identity.originalIdentityKey : nil) {
            extensions.append(ContactCardExtension(type: ContactCardExtension.Kind.originalIdentityKey, value: Array(originalIdentityKey.rawRepresentation)))
            feedID = FeedID(identityKey: originalIdentityKey)
        }
        let prekey = Array((signedPrekey ?? identity.dhKey.publicKey).rawRepresentation)
        let prekeySignature: [UInt8]
        do {
            prekeySignature = try identity.sign(signedPrekeyBytes(id: signedPrekeyID, key: prekey))
        } catch {
            throw .signingFailed(error.description)
        }
        guard createdAt >= 0 else { throw .invalidField("created_at", reason: "must not be negative") }
        var writer = ByteWriter(capacity: 1_600)
        writer.write(ContactCardLimits.currentVersion)
        writer.write(bytes: feedID.rawBytes)
        writer.write(bytes: identity.publicKeys.identityKey.rawRepresentation)
        writer.write(bytes: identity.publicKeys.dhKey.rawRepresentation)
        writer.write(bytes: identity.publicKeys.pqKey.rawRepresentation)
        writer.write(signedPrekeyID)
        writer.write(bytes: prekey)
        writer.write(bytes: prekeySignature)
        writer.write(UInt64(createdAt))
        let name = Array(displayName.utf8)
        try checkName(displayName, byteCount: name.count)
        writer.write(UInt8(name.count))
        writer.write(bytes: name)
        let sorted = extensions.sorted { $0.type < $1.type }
        try checkExtensions(sorted)
        writer.write(UInt8(sorted.count))
        for item in sorted {
            writer.write(item.type)
            writer.write(UInt16(item.value.count))
            writer.write(bytes: item.value)
        }
        let signature: [UInt8]
        do {
            signature = try identity.sign(ContactCardLimits.signatureLabel + writer.bytes)
        } catch {
            throw .signingFailed(error.description)
        }
        writer.write(bytes: signature)
        return try decode(writer.bytes)
    }

    // MARK: Reading

    /// Parses the text form and verifies the card (structure, feed id, both signatures).
    public init(text: String) throws(ContactCardError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Base64URL.encodedLength(of: ContactCardLimits.maxCardBytes) >= trimmed.utf8.count else {
            throw .tooLarge(trimmed.utf8.count * 3 / 4)
        }
        let bytes: [UInt8]
        do { bytes = try Base64URL.decode(trimmed) } catch { throw .invalidText(error.description) }
        self = try Self.decode(bytes)
    }

    /// Decodes and verifies the binary form (structure, feed id, both signatures).
    public static func decode(_ bytes: [UInt8]) throws(ContactCardError) -> ContactCard {
        guard bytes.count <= ContactCardLimits.maxCardBytes else { throw .tooLarge(bytes.count) }
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == ContactCardLimits.currentVersion else { throw ContactCardError.unknownVersion(version) }
            let feedRaw = try reader.readBytes(32)
            let identityRaw = try reader.readBytes(ContactCardLimits.curveKeyBytes)
            let dhRaw = try reader.readBytes(ContactCardLimits.curveKeyBytes)
            let pqRaw = try reader.readBytes(ContactCardLimits.pqKeyBytes)
            let prekeyID = try reader.readUInt32()
            let prekey = try reader.readBytes(ContactCardLimits.curveKeyBytes)
            let prekeySignature = try reader.readBytes(ContactCardLimits.signatureBytes)
            let created = try reader.readUInt64()
            guard created <= UInt64(Int64.max) else { throw ContactCardError.invalidField("created_at", reason: "out of range") }
            let nameLength = Int(try reader.readUInt8())
            let nameBytes = try reader.readBytes(nameLength)
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw ContactCardError.invalidField("display_name", reason: "not valid UTF-8")
            }
            try checkName(name, byteCount: nameLength)
            let count = Int(try reader.readUInt8())
            guard count <= ContactCardLimits.maxExtensions else {
                throw ContactCardError.invalidField("extensions", reason: "\(count) extensions; at most \(ContactCardLimits.maxExtensions)")
            }
            var extensions: [ContactCardExtension] = []
            for _ in 0..<count {
                let type = try reader.readUInt16()
                let length = Int(try reader.readUInt16())
                guard length <= ContactCardLimits.maxExtensionValueBytes else {
                    throw ContactCardError.invalidField("extensions", reason: "value of \(length) bytes; at most \(ContactCardLimits.maxExtensionValueBytes)")
                }
                extensions.append(ContactCardExtension(type: type, value: try reader.readBytes(length)))
            }
            try checkExtensions(extensions)
            let signedLength = reader.offset
            let signature = try reader.readBytes(ContactCardLimits.signatureBytes)
            try reader.expectEnd()

            let identityKey: Curve25519.Signing.PublicKey
            let keys: PublicKeys
            do {
                try StrictEd25519.validatePublicKey(identityRaw)
                identityKey = try Curve25519.Signing.PublicKey(rawRepresentation: identityRaw)
            } catch { throw ContactCardError.invalidKey("identity key (\(error))") }
            do {
                let dh = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: dhRaw)
                let pq = try MLKEM768.PublicKey(rawRepresentation: pqRaw)
                keys = PublicKeys(identityKey: identityKey, dhKey: dh, pqKey: pq)
            } catch { throw ContactCardError.invalidKey("dh or pq key") }
            let feedID: FeedID
            do { feedID = try FeedID(rawBytes: feedRaw) } catch { throw ContactCardError.malformed("feed id") }
            guard identityKey.isValidStrictSignature(signature, for: ContactCardLimits.signatureLabel + bytes[0..<signedLength]) else {
                throw ContactCardError.badSignature
            }
            if let original = extensions.first(where: { $0.type == ContactCardExtension.Kind.originalIdentityKey }) {
                guard (try? StrictEd25519.validatePublicKey(original.value)) != nil,
                      (try? Curve25519.Signing.PublicKey(rawRepresentation: original.value)) != nil else {
                    throw ContactCardError.invalidKey("original identity key")
                }
                let derived = Base64URL.encode(SHA256.hash(data: original.value))
                guard derived == feedID.string else { throw ContactCardError.feedIDMismatch(card: feedID.string, derived: derived) }
            } else {
                guard keys.feedID == feedID else { throw ContactCardError.feedIDMismatch(card: feedID.string, derived: keys.feedID.string) }
            }
            guard identityKey.isValidStrictSignature(prekeySignature, for: signedPrekeyBytes(id: prekeyID, key: prekey)) else {
                throw ContactCardError.badPrekeySignature
            }
            return ContactCard(
                version: version, feedID: feedID, publicKeys: keys, signedPrekeyID: prekeyID, signedPrekey: prekey,
                signedPrekeySignature: prekeySignature, createdAt: Int64(created), displayName: name,
                extensions: extensions, signature: signature, encoded: bytes
            )
        } catch let error as ContactCardError {
            throw error
        } catch let error as ByteReaderError {
            throw .malformed(error.description)
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// Throws unless the card was made at most `maxAge` seconds before `now` (and not more than
    /// ``ContactCardLimits/maxFutureSkew`` after it).
    public func checkAge(now: Int64, maxAge: Int64 = ContactCardLimits.defaultMaxAge) throws(ContactCardError) {
        let age = now - createdAt
        if age > maxAge { throw .tooOld(ageSeconds: age, maxAgeSeconds: maxAge) }
        if -age > ContactCardLimits.maxFutureSkew { throw .fromTheFuture(secondsAhead: -age) }
    }

    // MARK: Rules

    /// The bytes the signed prekey signature covers.
    public static func signedPrekeyBytes(id: UInt32, key: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 47)
        writer.write(bytes: ContactCardLimits.signedPrekeyLabel)
        writer.write(id)
        writer.write(bytes: key)
        return writer.bytes
    }

    static func checkName(_ name: String, byteCount: Int) throws(ContactCardError) {
        guard byteCount <= ContactCardLimits.maxDisplayNameBytes else {
            throw .invalidField("display_name", reason: "\(byteCount) bytes; at most \(ContactCardLimits.maxDisplayNameBytes)")
        }
        let scalars = name.unicodeScalars.count
        guard scalars <= ContactCardLimits.maxDisplayNameScalars else {
            throw .invalidField("display_name", reason: "\(scalars) characters; at most \(ContactCardLimits.maxDisplayNameScalars)")
        }
    }

    static func checkExtensions(_ extensions: [ContactCardExtension]) throws(ContactCardError) {
        guard extensions.count <= ContactCardLimits.maxExtensions else {
            throw .invalidField("extensions", reason: "\(extensions.count) extensions; at most \(ContactCardLimits.maxExtensions)")
        }
        var previous: UInt16?
        for item in extensions {
            guard item.value.count <= ContactCardLimits.maxExtensionValueBytes else {
                throw .invalidField("extensions", reason: "value of \(item.value.count) bytes; at most \(ContactCardLimits.maxExtensionValueBytes)")
            }
            if let previous, item.type <= previous {
                throw .invalidField("extensions", reason: "types must be unique and ascending")
            }
            previous = item.type
        }
    }
}
