import Crypto
import Foundation
import KithCanonical

extension NanoTDF.PolicyBinding {
    /// The "GMAC" binding of Kith's dialect: `SHA-256(message)[24..<32]` (unkeyed, as the OpenTDF SDKs compute it).
    public static func gmac(over message: [UInt8]) -> NanoTDF.PolicyBinding {
        .gmac(Array(SHA256.hash(data: message).suffix(NanoTDFLimits.gmacBindingSize)))
    }

    /// OpenTDFKit's "GMAC" binding: the first 8 bytes of the AES-GCM tag under `key` with an all-zero nonce,
    /// an empty plaintext and `message` (the policy's ``NanoTDF/Policy/Body/wireForm``) as additional data.
    public static func gcmTag(over message: [UInt8], key: SymmetricKey) throws(NanoTDFError) -> NanoTDF.PolicyBinding {
        do {
            let box = try AES.GCM.seal(
                [UInt8](), using: key, nonce: AES.GCM.Nonce(data: NanoTDFGCM.policyNonce), authenticating: message)
            return .gmac(Array(box.tag.prefix(NanoTDFLimits.gmacBindingSize)))
        } catch {
            throw .cryptoFailure("AES-GCM binding tag")
        }
    }

    /// An ECDSA binding by `ephemeralKey` over `message`, with minimal length-prefixed `r` and `s`.
    static func ecdsa(over message: [UInt8], ephemeralKey: NanoTDF.PrivateKey) throws(NanoTDFError) -> NanoTDF.PolicyBinding {
        let (r, s) = try ephemeralKey.sign(message)
        return .ecdsa(r: minimal(r), s: minimal(s), encoding: .lengthPrefixed)
    }

    private static func minimal(_ bytes: [UInt8]) -> [UInt8] {
        let trimmed = Array(bytes.drop { $0 == 0 })
        return trimmed.isEmpty ? [0] : trimmed
    }
}

extension NanoTDF {
    /// Checks the policy binding: the GMAC digest in constant time, or the ECDSA signature by the header's ephemeral key.
    public func verifyPolicyBinding() throws(NanoTDFError) {
        let message = header.policy.body.bindingMessage
        switch header.policy.binding {
        case .gmac(let tag):
            guard case .gmac(let expected) = PolicyBinding.gmac(over: message), ConstantTime.equals(expected, tag) else {
                throw .policyBindingMismatch
            }
        case .ecdsa(let r, let s, _):
            let key = try PublicKey(
                curve: header.ephemeralCurve, compressedRepresentation: header.ephemeralPublicKey, field: "ephemeral public key")
            guard key.isValidSignature(r: r, s: s, over: message) else { throw .policyBindingMismatch }
        }
    }
}
