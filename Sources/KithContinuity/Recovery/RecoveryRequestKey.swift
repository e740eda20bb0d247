import Crypto
import Foundation
import KithCanonical

/// The new device's side of a recovery request: the ephemeral X25519 private key that opens releases, kept only
/// until the secret is rebuilt.
public struct RecoveryRequestKey: Sendable {
    /// The public request to show to guardians.
    public let request: RecoveryRequest
    private let privateKey: Curve25519.KeyAgreement.PrivateKey

    /// Makes a fresh request for the feed `ownerFeedID` (raw 32 bytes) with a new key and nonce.
    /// - Throws: `RecoveryError.invalidFeedID` unless the feed id is 32 bytes.
    public static func make(ownerFeedID: [UInt8]) throws(RecoveryError) -> RecoveryRequestKey {
        guard ownerFeedID.count == RecoveryLimits.feedIDBytes else { throw .invalidFeedID(byteCount: ownerFeedID.count) }
        var randomness = SystemRecoveryRandomness()
        return RecoveryRequestKey(privateKey: Curve25519.KeyAgreement.PrivateKey(), ownerFeedID: ownerFeedID,
                                  nonce: randomness.bytes(RecoveryLimits.requestNonceBytes))
    }

    init(privateKey: Curve25519.KeyAgreement.PrivateKey, ownerFeedID: [UInt8], nonce: [UInt8]) {
        self.privateKey = privateKey
        request = RecoveryRequest(ownerFeedID: ownerFeedID, publicKey: Array(privateKey.publicKey.rawRepresentation),
                                  nonce: nonce)
    }

    /// The private state to keep between commands (private key 32 | encoded request); a secret, to be stored sealed.
    public var secretBytes: [UInt8] { Array(privateKey.rawRepresentation) + request.encoded }

    /// Restores the state written by `secretBytes`.
    /// - Throws: `RecoveryError.malformed` when the bytes are not a key and a request that match.
    public init(secretBytes bytes: [UInt8]) throws(RecoveryError) {
        guard bytes.count == 32 + RecoveryRequest.encodedBytes,
              let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes.prefix(32)) else {
            throw .malformed(kind: "request key", reason: "not a key and a request")
        }
        let request = try RecoveryRequest(encoded: Array(bytes.dropFirst(32)))
        guard ConstantTime.equals(Array(key.publicKey.rawRepresentation), request.publicKey) else {
            throw .malformed(kind: "request key", reason: "the key does not match the request")
        }
        self.privateKey = key
        self.request = request
    }

    /// Opens a release made for this request and returns the guardian's share.
    ///
    /// - Throws: `RecoveryError.releaseForAnotherRequest` for another nonce, `.releaseDoesNotOpen` when it does not
    ///   open with this key (altered, or sealed to another request), `.malformed` for a bad share inside, and
    ///   `.ownerMismatch` when the share is another owner's.
    public func open(_ release: RecoveryRelease) throws(RecoveryError) -> RecoveryShare {
        guard ConstantTime.equals(release.requestNonce, request.nonce) else { throw .releaseForAnotherRequest }
        let plaintext: Data
        do {
            var recipient = try HPKE.Recipient(privateKey: privateKey, ciphersuite: RecoveryRelease.ciphersuite,
                                               info: Data(RecoveryRelease.infoLabel + request.encoded),
                                               encapsulatedKey: Data(release.encapsulatedKey))
            let header = RecoveryRelease.associatedData(nonce: release.requestNonce, encapsulatedKey: release.encapsulatedKey)
            plaintext = try recipient.open(release.sealedShare, authenticating: header)
        } catch {
            throw .releaseDoesNotOpen
        }
        let share = try RecoveryShare(encoded: Array(plaintext))
        guard ConstantTime.equals(share.ownerFeedID, request.ownerFeedID) else { throw .ownerMismatch }
        return share
    }
}
