import Crypto
import Foundation
import KithCanonical

/// A guardian's share sealed to one recovery request: HPKE (RFC 9180, base mode, DHKEM(X25519, HKDF-SHA256),
/// HKDF-SHA256, ChaCha20-Poly1305) to the request's key, with the whole encoded request as the HPKE info and the
/// release header as associated data, so it opens only for that request.
///
/// Binary form: magic "KRL" | version u8 = 0x01 | request nonce 16 | encapsulated key 32 | sealed length u16
/// | sealed share (encoded `RecoveryShare` + 16-byte tag). Text form: base64url of the binary form.
public struct RecoveryRelease: Sendable, Equatable {
    /// The format version written and read.
    public static let version: UInt8 = 0x01
    static let magic: [UInt8] = Array("KRL".utf8)
    static let ciphersuite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly
    static let infoLabel = Array("Kith_RecoveryRelease_v1".utf8)

    /// The nonce of the request this release answers.
    public let requestNonce: [UInt8]
    /// The HPKE encapsulated key (the guardian's ephemeral X25519 public key).
    public let encapsulatedKey: [UInt8]
    /// The sealed share.
    public let sealedShare: [UInt8]

    /// Seals `share` to `request` (the guardian's side, after the safety code was compared).
    ///
    /// - Throws: `RecoveryError.ownerMismatch` when the request claims another feed than the share's owner, or
    ///   `.cryptoFailure` when sealing fails.
    public static func seal(_ share: RecoveryShare, for request: RecoveryRequest) throws(RecoveryError) -> RecoveryRelease {
        guard ConstantTime.equals(share.ownerFeedID, request.ownerFeedID) else { throw .ownerMismatch }
        do {
            let key = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: request.publicKey)
            var sender = try HPKE.Sender(recipientKey: key, ciphersuite: ciphersuite, info: Data(infoLabel + request.encoded))
            let encapsulated = Array(sender.encapsulatedKey)
            let header = associatedData(nonce: request.nonce, encapsulatedKey: encapsulated)
            let sealed = try sender.seal(share.encoded, authenticating: header)
            return RecoveryRelease(requestNonce: request.nonce, encapsulatedKey: encapsulated, sealedShare: Array(sealed))
        } catch {
            throw .cryptoFailure("sealing the release: \(error)")
        }
    }

    init(requestNonce: [UInt8], encapsulatedKey: [UInt8], sealedShare: [UInt8]) {
        self.requestNonce = requestNonce
        self.encapsulatedKey = encapsulatedKey
        self.sealedShare = sealedShare
    }

    static func associatedData(nonce: [UInt8], encapsulatedKey: [UInt8]) -> [UInt8] {
        magic + [version] + nonce + encapsulatedKey
    }

    /// The binary form.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 4 + requestNonce.count + encapsulatedKey.count + 2 + sealedShare.count)
        writer.write(bytes: Self.associatedData(nonce: requestNonce, encapsulatedKey: encapsulatedKey))
        writer.write(UInt16(sealedShare.count))
        writer.write(bytes: sealedShare)
        return writer.bytes
    }

    /// The text form (base64url of `encoded`).
    public var text: String { Base64URL.encode(encoded) }

    /// Reads the binary form (the share inside is read when the request opens it).
    /// - Throws: `RecoveryError.malformed` for a wrong magic, version or length.
    public init(encoded bytes: [UInt8]) throws(RecoveryError) {
        self = try RecoveryDecoding.read(bytes, kind: "release", maxBytes: RecoveryLimits.maxEncodedReleaseBytes,
                                         magic: Self.magic, version: Self.version) { reader in
            let nonce = try reader.readBytes(RecoveryLimits.requestNonceBytes)
            let encapsulatedKey = try reader.readBytes(32)
            let length = Int(try reader.readUInt16())
            guard length > 16 else { throw RecoveryError.malformed(kind: "release", reason: "sealed share of \(length) bytes") }
            return RecoveryRelease(requestNonce: nonce, encapsulatedKey: encapsulatedKey, sealedShare: try reader.readBytes(length))
        }
    }

    /// Reads the text form.
    public init(text: String) throws(RecoveryError) {
        try self.init(encoded: try RecoveryText.decode(text, kind: "release", maxBytes: RecoveryLimits.maxEncodedReleaseBytes))
    }
}
