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
        guard text.utf8.count <= (Self.maxBytes + 2) / 3 * 4 else { throw .input(.prekeyHandover("larger than \(Self.maxBytes) bytes")) }
        guard let bytes = try? Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw .input(.prekeyHandover("not base64url text")) }
        var reader = ByteReader(bytes)
        do {
            guard try reader.readUInt8() == Self.version else { throw KithError.input(.prekeyHandover("unknown version")) }
            issuer = try KithIdentity.FeedID(rawBytes: try reader.readBytes(32))
            recipient = try KithIdentity.FeedID(rawBytes: try reader.readBytes(32))
            guard reader.remaining >= 3 + 36 + 64 else { throw KithError.input(.prekeyHandover("truncated")) }
            let batchBytes = try reader.readBytes(reader.remaining - 64)
            let signature = try reader.readBytes(64)
            guard issuerKey.isValidStrictSignature(signature, for: Self.label + Array(bytes.dropLast(64))) else {
                throw KithError.input(.prekeyHandover("the signature does not verify with the contact's identity key"))
            }
            batch = try OneTimePrekeyBatch.decode(batchBytes)
        } catch let error as KithError {
            throw error
        } catch {
            throw .input(.prekeyHandover("malformed: \(error)"))
        }
        encoded = bytes
    }

    private init(issuer: KithIdentity.FeedID, recipient: KithIdentity.FeedID, batch: OneTimePrekeyBatch, encoded: [UInt8]) {
        self.issuer = issuer
        self.recipient = recipient
        self.batch = batch
        self.encoded = encoded
    }
}
