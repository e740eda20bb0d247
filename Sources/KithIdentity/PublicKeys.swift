import Crypto
import Foundation
import KithCanonical
import KithEd25519

/// The public half of an identity: what contacts store and what verifies a feed.
public struct PublicKeys: Sendable {
    /// Ed25519 identity key: verifies every envelope of the feed.
    public let identityKey: Curve25519.Signing.PublicKey
    /// X25519 key: the signed prekey of X3DH and the contacts-key agreement.
    public let dhKey: Curve25519.KeyAgreement.PublicKey
    /// ML-KEM-768 key for hybrid post-quantum key establishment.
    public let pqKey: MLKEM768.PublicKey

    /// Bundles the three public keys.
    public init(identityKey: Curve25519.Signing.PublicKey, dhKey: Curve25519.KeyAgreement.PublicKey, pqKey: MLKEM768.PublicKey) {
        self.identityKey = identityKey
        self.dhKey = dhKey
        self.pqKey = pqKey
    }

    /// The feed id of ``identityKey``.
    public var feedID: FeedID { FeedID(identityKey: identityKey) }

    /// base64url of the Ed25519 public key (43 characters).
    public var identityKeyString: String { Base64URL.encode(identityKey.rawRepresentation) }
    /// base64url of the X25519 public key (43 characters).
    public var dhKeyString: String { Base64URL.encode(dhKey.rawRepresentation) }
    /// base64url of the ML-KEM-768 public key (1,579 characters).
    public var pqKeyString: String { Base64URL.encode(pqKey.rawRepresentation) }

    /// Parses an Ed25519 public key from base64url and checks it against the strict key rule
    /// (canonical, on the curve, not of small order, in the prime-order subgroup: docs
    /// section 2, "Ed25519 verification rule").
    public static func identityKey(fromBase64URL text: String) throws(IdentityError) -> Curve25519.Signing.PublicKey {
        do {
            let raw = try Base64URL.decode(text, expectedLength: 32)
            try StrictEd25519.validatePublicKey(raw)
            return try Curve25519.Signing.PublicKey(rawRepresentation: raw)
        } catch {
            throw .invalidPublicKey(kind: "Ed25519 identity key", reason: "\(error)")
        }
    }

    /// Parses an identity key this device stored after checking it with
    /// ``identityKey(fromBase64URL:)`` (the store admits no other): the strict check, which costs
    /// about as much as a few signature verifications, is not repeated on every load.
    public static func identityKey(storedBase64URL text: String) throws(IdentityError) -> Curve25519.Signing.PublicKey {
        do {
            return try Curve25519.Signing.PublicKey(rawRepresentation: try Base64URL.decode(text, expectedLength: 32))
        } catch {
            throw .invalidPublicKey(kind: "stored Ed25519 identity key", reason: "\(error)")
        }
    }
}

/// An Ed25519 identity public key: what verifies a feed.
public typealias IdentityPublicKey = Curve25519.Signing.PublicKey
