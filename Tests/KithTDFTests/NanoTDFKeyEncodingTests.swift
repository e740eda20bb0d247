import Crypto
import Testing
@testable import KithTDF

/// Keys as other tools write them: PEM and raw forms on the three curves, and what is refused.
@Suite struct NanoTDFKeyEncodingTests {
    @Test func pemAndRawFormsReadBack() throws {
        for curve in [NanoTDF.Curve.secp256r1, .secp384r1, .secp521r1] {
            let key = try NanoTDF.PrivateKey(generatingOn: curve)
            let fromPEM = try NanoTDF.PrivateKey(encoded: Array(key.pemRepresentation.utf8))
            #expect(fromPEM.publicKey.compressedRepresentation == key.publicKey.compressedRepresentation)
            let publicPEM = try NanoTDF.PublicKey(encoded: Array(key.publicKey.pemRepresentation.utf8))
            #expect(publicPEM.compressedRepresentation == key.publicKey.compressedRepresentation)
            let compressed = try NanoTDF.PublicKey(encoded: key.publicKey.compressedRepresentation)
            #expect(compressed.curve == curve)
        }
        let p256 = P256.KeyAgreement.PrivateKey()
        #expect(try NanoTDF.PrivateKey(encoded: Array(p256.rawRepresentation)).curve == .secp256r1)
        #expect(try NanoTDF.PublicKey(encoded: Array(p256.publicKey.x963Representation)).curve == .secp256r1)
    }

    @Test func malformedKeysAreRefusedWithAReason() {
        #expect(throws: NanoTDFError.self) { try NanoTDF.PrivateKey(encoded: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: NanoTDFError.self) { try NanoTDF.PrivateKey(encoded: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----".utf8)) }
        // An x coordinate above the field prime is no point.
        #expect(throws: NanoTDFError.self) { try NanoTDF.PublicKey(encoded: [0x02] + [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: NanoTDFError.self) { try NanoTDF.PublicKey(encoded: [0x04] + [UInt8](repeating: 7, count: 64)) }
        #expect(throws: NanoTDFError.self) { try NanoTDF.PublicKey(encoded: [UInt8](repeating: 2, count: 40)) }
    }
}
