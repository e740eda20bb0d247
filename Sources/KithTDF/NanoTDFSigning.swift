import Crypto
import Foundation

extension NanoTDF {
    /// Returns this NanoTDF with a trailing P-256 signature by `creatorKey` over header ‖ payload.
    ///
    /// Sets HAS_SIGNATURE and the signature curve in the header first, so the signed bytes are the final ones.
    public func signed(with creatorKey: P256.Signing.PrivateKey) throws(NanoTDFError) -> NanoTDF {
        var copy = self
        copy.attach(
            signature: Signature(publicKey: [], rs: []), curve: .secp256r1)
        let message = copy.signedBytes
        let rs: [UInt8]
        do {
            rs = Array(try creatorKey.signature(for: SHA256.hash(data: message)).rawRepresentation)
        } catch {
            throw .cryptoFailure("ECDSA signing")
        }
        copy.attach(
            signature: Signature(publicKey: Array(creatorKey.publicKey.compressedRepresentation), rs: rs), curve: .secp256r1)
        return copy
    }

    /// Checks the trailing signature (ECDSA-SHA256 over header ‖ payload by the key in the signature section).
    public func verifySignature() throws(NanoTDFError) {
        guard let signature else { throw .signatureMismatch }
        let key = try PublicKey(
            curve: header.signatureCurve, compressedRepresentation: signature.publicKey, field: "signature public key")
        let half = signature.rs.count / 2
        guard key.isValidSignature(
            r: Array(signature.rs[..<half]), s: Array(signature.rs[half...]), over: signedBytes)
        else { throw .invalidSignature }
    }
}
