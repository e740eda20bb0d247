import KithMLS
import KithMLSConformance
import Testing

@Suite struct CipherSuiteTests {
    @Test func cryptoBasicsVectorsPass() throws {
        let result = try VectorFiles.runAll(CryptoBasicsVector.self, expectedCases: 7)
        #expect(result.skipped == 2)
    }

    @Test(arguments: [UInt16(4), 6, 0, 8, 0xFFFF])
    func unsupportedSuitesAreRejected(raw: UInt16) {
        #expect(throws: MLSCryptoError.unsupportedCipherSuite(raw)) { try CipherSuite(rawValue: raw) }
    }

    /// Some encoders strip leading zero bytes of ECDSA scalars (the P-521 key in message-protection.json is 65 bytes).
    @Test func shortECDSAScalarIsTheSameInteger() throws {
        let suite = try CipherSuite(rawValue: 2)
        let key = [UInt8](repeating: 0, count: 1) + [UInt8](repeating: 7, count: 31)
        #expect(try suite.signature.publicKey(privateKey: key) == suite.signature.publicKey(privateKey: Array(key.dropFirst())))
    }

    @Test func x448ErrorExplainsWhy() {
        #expect(MLSCryptoError.unsupportedCipherSuite(4).description.contains("X448"))
    }

    @Test(arguments: CipherSuiteID.supported)
    func encryptWithLabelRoundTripAndTamper(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let keys = suite.kem.generateKeyPair()
        let sealed = try suite.encryptWithLabel(publicKey: keys.publicKey, label: "Test", context: [1, 2], plaintext: [9, 9, 9])
        #expect(try suite.decryptWithLabel(privateKey: keys.privateKey, label: "Test", context: [1, 2], ciphertext: sealed) == [9, 9, 9])
        #expect(throws: MLSCryptoError.self) {
            try suite.decryptWithLabel(privateKey: keys.privateKey, label: "Other", context: [1, 2], ciphertext: sealed)
        }
    }

    @Test func smallOrderX25519KeyIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let zeroPoint = [UInt8](repeating: 0, count: 32)
        #expect(throws: MLSCryptoError.allZeroSharedSecret) {
            try suite.encryptWithLabel(publicKey: zeroPoint, label: "Test", context: [], plaintext: [1])
        }
        let keys = suite.kem.generateKeyPair()
        #expect(throws: MLSCryptoError.allZeroSharedSecret) {
            try suite.decryptWithLabel(privateKey: keys.privateKey, label: "Test", context: [],
                                       ciphertext: HPKECiphertext(kemOutput: zeroPoint, ciphertext: [UInt8](repeating: 0, count: 17)))
        }
    }

    @Test(arguments: CipherSuiteID.supported)
    func deriveKeyPairIsDeterministic(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let first = try suite.deriveKeyPair(secret: [UInt8](repeating: 7, count: suite.secretSize))
        let second = try suite.deriveKeyPair(secret: [UInt8](repeating: 7, count: suite.secretSize))
        #expect(first == second)
        #expect(try suite.kem.publicKey(privateKey: first.privateKey) == first.publicKey)
    }

    @Test func malformedKeysAreRejectedNotCrashing() throws {
        let suite = try CipherSuite(rawValue: 2)
        #expect(throws: MLSCryptoError.self) { try suite.signWithLabel(privateKey: [], label: "x", content: []) }
        #expect(throws: MLSCryptoError.self) { try suite.signWithLabel(privateKey: [UInt8](repeating: 1, count: 40), label: "x", content: []) }
        #expect(throws: MLSCryptoError.self) { try suite.signWithLabel(privateKey: [UInt8](repeating: 0xFF, count: 32), label: "x", content: []) }
        #expect(!suite.verifyWithLabel(publicKey: [4, 5], label: "x", content: [], signature: [1]))
        #expect(throws: MLSCryptoError.self) { try suite.encryptWithLabel(publicKey: [4, 5], label: "x", context: [], plaintext: []) }
    }
}
