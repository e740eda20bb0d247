import Crypto
import Foundation
import KithCanonical

extension NanoTDF {
    /// Whether a policy binding was checked.
    public enum BindingStatus: Sendable, Equatable {
        /// The binding matches the policy under the payload key (or, in the SDK dialect, its digest).
        case verified
        /// The binding could not be checked; `reason` says why. A tampered policy would look the same.
        case unverified(reason: String)
    }

    /// The outcome of ``decrypt(usingAnyOf:dialect:)``: the plaintext and what was and was not checked.
    public struct DecryptionResult: Sendable, Equatable {
        /// The decrypted payload (its GCM tag verified).
        public let plaintext: [UInt8]
        /// The policy binding's status.
        public let binding: BindingStatus
        /// The version whose magic salted HKDF (SHA-256 of "L1L" or "L1M").
        public let saltVersion: Version
        /// The position, among the keys given, of the key that opened the payload.
        public let keyIndex: Int
    }

    /// Decrypts with whichever of `keys` the file is for, reading it in `dialect`.
    ///
    /// An "L1M" header names its recipient key: only the matching private key is used, and none matching is
    /// ``NanoTDFError/recipientKeyNotHeld(recipientKey:)``. Otherwise each key is tried in order (the payload's
    /// GCM tag tells the right one). In the SDK dialect every check of ``decrypt(using:)`` applies and the
    /// binding is verified or the file refused. In the Arkavo dialect the payload tag is checked under each
    /// salt of ``NanoTDFDialect/readSalts(for:)``, then the binding is checked with the zero nonce; a binding
    /// that does not match is returned as ``BindingStatus/unverified(reason:)``, never dropped silently, since
    /// the revision of OpenTDFKit the Arkavo app pins binds with a random nonce nobody can reproduce.
    public func decrypt(usingAnyOf keys: [PrivateKey], dialect: NanoTDFDialect) throws(NanoTDFError) -> DecryptionResult {
        let candidates = try candidateKeys(keys)
        if dialect.nonceLayout == .zerosThenIV, dialect.gmacBinding == .sha256Suffix {
            var failure = NanoTDFError.authenticationFailed(field: "payload")
            for (index, key) in candidates {
                do {
                    let plaintext = try decrypt(using: key)
                    return DecryptionResult(plaintext: plaintext, binding: .verified, saltVersion: header.version, keyIndex: index)
                } catch {
                    guard case .authenticationFailed = error, candidates.count > 1 else { throw error }
                    failure = error
                }
            }
            throw failure
        }
        if signature != nil { try verifySignature() }
        for (index, key) in candidates {
            for saltVersion in dialect.readSalts(for: header.version) {
                let dataKey = try dataKey(using: key, saltOf: saltVersion)
                let plaintext: [UInt8]
                do {
                    plaintext = try NanoTDFGCM.open(
                        ciphertext: payload.ciphertext, tag: payload.tag, key: dataKey,
                        nonce: dialect.payloadNonce(iv: payload.iv), field: "payload")
                } catch {
                    guard case .authenticationFailed = error else { throw error }
                    continue
                }
                let binding = try bindingStatus(dataKey: dataKey, dialect: dialect)
                return DecryptionResult(plaintext: plaintext, binding: binding, saltVersion: saltVersion, keyIndex: index)
            }
        }
        throw .authenticationFailed(field: "payload")
    }

    /// The keys worth trying, with their positions: the one matching the header's recipient key, or all of them.
    private func candidateKeys(_ keys: [PrivateKey]) throws(NanoTDFError) -> [(Int, PrivateKey)] {
        guard !keys.isEmpty else { throw .noDecryptionKey }
        let all = Array(keys.enumerated()).map { ($0.offset, $0.element) }
        guard let recipient = header.recipientPublicKey else { return all }
        let matching = all.filter { ConstantTime.equals($0.1.publicKey.compressedRepresentation, recipient.key) }
        guard !matching.isEmpty else { throw .recipientKeyNotHeld(recipientKey: recipient.key) }
        return matching
    }

    private func bindingStatus(dataKey: SymmetricKey, dialect: NanoTDFDialect) throws(NanoTDFError) -> BindingStatus {
        switch header.policy.binding {
        case .gmac(let tag):
            let expected: PolicyBinding
            switch dialect.gmacBinding {
            case .sha256Suffix: expected = .gmac(over: header.policy.body.bindingMessage)
            case .gcmTagZeroNonce: expected = try .gcmTag(over: header.policy.body.wireForm, key: dataKey)
            }
            if case .gmac(let computed) = expected, ConstantTime.equals(computed, tag) { return .verified }
            return .unverified(
                reason: "the 8-byte GMAC binding does not match the policy under the zero nonce: OpenTDFKit at the revision "
                    + "the Arkavo app pins binds with a random nonce it does not keep, so its bindings cannot be checked, "
                    + "and a changed policy looks the same")
        case .ecdsa:
            return .unverified(reason: "OpenTDFKit writes no ECDSA bindings; this one was not checked")
        }
    }
}
