import Foundation
import SwiftProtobuf

/// An invite as carried: the payload bytes exactly as signed, their decoded fields and the signature.
///
/// Verification always hashes ``payloadBytes`` as received, never a re-serialization (other clients write
/// defaults such as `expiresAfterUse = false` that Kith would omit).
public struct SignedInvite: Sendable, Hashable {
    /// The serialized `InvitePayload`, exactly as signed.
    public let payloadBytes: [UInt8]
    /// The decoded payload.
    public let payload: InvitePayload
    /// The recoverable signature over SHA-256 of ``payloadBytes``.
    public let signature: InviteSignature

    /// Serializes and signs `payload` with the creator's key.
    ///
    /// - Throws: ``InviteError/invalidTag(_:)`` or ``InviteError/signingFailed``.
    public init(signing payload: InvitePayload, with key: InviteSigningKey) throws(InviteError) {
        let bytes = try payload.serializedBytes()
        self.payloadBytes = bytes
        self.payload = payload
        self.signature = try key.signature(for: bytes)
    }

    /// Parses a serialized `SignedInvite` (the frame inside an invite code, after decompression).
    ///
    /// - Throws: ``InviteError`` for an oversized or malformed message, a bad payload or a malformed signature.
    public init<Bytes: Collection>(serialized input: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let bytes = Array(input)
        guard bytes.count <= InviteLimits.maxSignedInviteBytes else {
            throw .signedInviteTooLarge(bytes: bytes.count, limit: InviteLimits.maxSignedInviteBytes)
        }
        let message: Kith_Convos_Invites_SignedInvite
        do {
            message = try Kith_Convos_Invites_SignedInvite(serializedBytes: bytes)
        } catch {
            throw .malformedProtobuf("SignedInvite: \(error)")
        }
        guard !message.payload.isEmpty else { throw .missingField("payload") }
        guard !message.signature.isEmpty else { throw .missingField("signature") }
        payloadBytes = Array(message.payload)
        signature = try InviteSignature(message.signature)
        payload = try InvitePayload(serialized: payloadBytes)
    }

    /// The serialized `SignedInvite { payload = 1; signature = 2 }`.
    public func serializedBytes() -> [UInt8] {
        var message = Kith_Convos_Invites_SignedInvite()
        message.payload = Data(payloadBytes)
        message.signature = Data(signature.bytes)
        // Two bytes fields always serialize.
        return (try? message.serializedBytes()) ?? []
    }

    /// The public key the signature recovers. On its own this proves nothing: see ``verify(expectedSigner:)``
    /// and ``verifyInboxBinding()``.
    ///
    /// - Throws: ``InviteError/signatureRecoveryFailed``.
    public func recoverSigner() throws(InviteError) -> InvitePublicKey {
        try signature.recoverSigner(of: payloadBytes)
    }

    /// Checks that `expectedSigner` (33 or 65 bytes) signed the invite, in constant time: the creator's check
    /// against its own key.
    ///
    /// - Throws: ``InviteError/signatureRecoveryFailed`` or ``InviteError/signerMismatch``.
    public func verify(expectedSigner: InvitePublicKey) throws(InviteError) {
        let recovered = try recoverSigner()
        guard recovered.matches(expectedSigner.uncompressed) else { throw .signerMismatch }
    }

    /// The joiner's check, stricter than Convos': the recovered signer must derive `creator_inbox_id`
    /// (libxmtp's inbox id of a first signer, nonce 0 or 1). Returns the signer and the nonce that matched.
    ///
    /// - Throws: ``InviteError/signatureRecoveryFailed`` or ``InviteError/inboxBindingFailed``.
    public func verifyInboxBinding() throws(InviteError) -> (signer: InvitePublicKey, nonce: UInt64) {
        let signer = try recoverSigner()
        guard let nonce = payload.creatorInboxID.bindingNonce(for: signer) else { throw .inboxBindingFailed }
        return (signer, nonce)
    }
}
