import Crypto
import Foundation
import KithCanonical
import KithEd25519
import KithIdentity
import KithRatchet

/// A batch of one-time prekeys handed to one contact in person (file, NFC, several QR codes),
/// signed so it cannot be swapped on the way.
///
/// Wire (docs/FEED-FORMAT.md, "Direct messages"), text form unpadded base64url:
///
///     version u8 = 0x01 | issuer_feed_id 32 | recipient_feed_id 32 | batch (one-time prekey batch wire)
///     | signature 64 = Ed25519(issuer identity key, "Kith_PrekeyHandover_v1" || every preceding byte)
public struct PrekeyHandover: Sendable, Equatable {
    /// The format version.
    public static let version: UInt8 = 0x01
    /// Signature domain separation label.
    static let label = Array("Kith_PrekeyHandover_v1".utf8)
    /// Largest accepted handover (8192 keys).
    public static let maxBytes = 1 + 32 + 32 + 3 + 36 * 8192 + 64

    /// Who issued the keys (and holds their private halves).
    public let issuer: KithIdentity.FeedID
    /// The only contact who may use them.
    public let recipient: KithIdentity.FeedID
    /// The keys.
    public let batch: OneTimePrekeyBatch
    /// The exact encoded bytes.
    public let encoded: [UInt8]

    /// The text form.
    public var text: String { Base64URL.encode(encoded) }

    /// Encodes and signs a batch issued by `identity` for `recipient`.
    public static func sign(batch: OneTimePrekeyBatch, issuer: KithIdentity.FeedID, recipient: KithIdentity.FeedID, identity: Identity) throws(KithError) -> PrekeyHandover {
        var writer = ByteWriter(capacity: 1 + 64 + batch.encoded.count + 64)
        writer.write(version)
        writer.write(bytes: issuer.rawBytes)
        writer.write(bytes: recipient.rawBytes)
        writer.write(bytes: batch.encoded)
        let signature: [UInt8]
        do { signature = try identity.sign(label + writer.bytes) } catch { throw .identity(error) }
        writer.write(bytes: signature)
        return PrekeyHandover(issuer: issuer, recipient: recipient, batch: batch, encoded: writer.bytes)
    }

    /// Parses and verifies a handover text against the issuer's current identity key.
    ///
    /// - Throws: ``KithError/input(_:)`` with ``InputError/prekeyHandover(_:)`` naming the broken rule (size, version, batch,
    ///   signature).
    public init(text: String, issuerKey: Curve25519.Signing.PublicKey) throws(KithError) {
        do throws(PrekeyHandoverError) {
            (issuer, recipient, batch, encoded) = try Self.parse(text, issuerKey: issuerKey)
        } catch {
            throw .input(.prekeyHandover(error))
        }
    }

    /// Reads and verifies a handover through a bounded cursor; every failure is typed.
    private static func parse(
        _ text: String, issuerKey: Curve25519.Signing.PublicKey
    ) throws(PrekeyHandoverError) -> (KithIdentity.FeedID, KithIdentity.FeedID, OneTimePrekeyBatch, [UInt8]) {
        guard text.utf8.count <= (maxBytes + 2) / 3 * 4 else { throw .tooLarge(maximumBytes: maxBytes) }
        guard let bytes = try? Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw .notBase64URL }
        // version (1) | issuer (32) | recipient (32) | batch (at least 3 + 36) | signature (64)
        guard bytes.count >= 1 + 32 + 32 + 3 + 36 + 64 else { throw .missingBatch }
        var reader = ByteReader(bytes)
        let version: UInt8
        let issuerBytes: [UInt8]
        let recipientBytes: [UInt8]
        let batchBytes: [UInt8]
        let signature: [UInt8]
        do throws(ByteReaderError) {
            version = try reader.readUInt8()
            issuerBytes = try reader.readBytes(32)
            recipientBytes = try reader.readBytes(32)
            batchBytes = try reader.readBytes(reader.remaining - 64)
            signature = try reader.readBytes(64)
        } catch {
            throw .truncated(error)
        }
        guard version == Self.version else { throw .unknownVersion(version) }
        let issuer: KithIdentity.FeedID
        let recipient: KithIdentity.FeedID
        do throws(IdentityError) {
            issuer = try KithIdentity.FeedID(rawBytes: issuerBytes)
            recipient = try KithIdentity.FeedID(rawBytes: recipientBytes)
        } catch {
            throw .invalidFeedID(error)
        }
        guard issuerKey.isValidStrictSignature(signature, for: label + Array(bytes.dropLast(64))) else { throw .badSignature }
        do throws(RatchetError) {
            return (issuer, recipient, try OneTimePrekeyBatch.decode(batchBytes), bytes)
        } catch {
            throw .invalidBatch(error)
        }
    }

    private init(issuer: KithIdentity.FeedID, recipient: KithIdentity.FeedID, batch: OneTimePrekeyBatch, encoded: [UInt8]) {
        self.issuer = issuer
        self.recipient = recipient
        self.batch = batch
        self.encoded = encoded
    }
}
