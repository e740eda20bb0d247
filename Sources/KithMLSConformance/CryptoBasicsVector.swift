import KithMLS
/// A `crypto-basics.json` case (RFC 9420 §5.1–5.2, §8, §9).
public struct CryptoBasicsVector: ConformanceVector {
    /// `crypto-basics.json`.
    public static let fileName = "crypto-basics.json"

    struct RefHashCase: Decodable, Sendable { let label: String; let value: HexString; let out: HexString }
    struct ExpandCase: Decodable, Sendable { let secret: HexString; let label: String; let context: HexString; let length: Int; let out: HexString }
    struct DeriveSecretCase: Decodable, Sendable { let secret: HexString; let label: String; let out: HexString }
    struct DeriveTreeSecretCase: Decodable, Sendable {
        let secret: HexString; let label: String; let generation: UInt32; let length: Int; let out: HexString
    }
    struct SignCase: Decodable, Sendable { let priv: HexString; let pub: HexString; let content: HexString; let label: String; let signature: HexString }
    struct EncryptCase: Decodable, Sendable {
        let priv: HexString; let pub: HexString; let label: String; let context: HexString
        let plaintext: HexString; let kem_output: HexString; let ciphertext: HexString
    }

    let cipher_suite: UInt16
    let ref_hash: RefHashCase
    let expand_with_label: ExpandCase
    let derive_secret: DeriveSecretCase
    let derive_tree_secret: DeriveTreeSecretCase
    let sign_with_label: SignCase
    let encrypt_with_label: EncryptCase

    /// Checks all six operations, plus sign-then-verify and encrypt-then-decrypt round trips.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            try Conformance.expectEqual("ref_hash", suite.refHash(label: ref_hash.label, value: ref_hash.value.bytes), ref_hash.out.bytes)
            let e = expand_with_label
            try Conformance.expectEqual("expand_with_label",
                try suite.expandWithLabel(secret: e.secret.bytes, label: e.label, context: e.context.bytes, length: e.length), e.out.bytes)
            try Conformance.expectEqual("derive_secret",
                try suite.deriveSecret(secret: derive_secret.secret.bytes, label: derive_secret.label), derive_secret.out.bytes)
            let t = derive_tree_secret
            try Conformance.expectEqual("derive_tree_secret",
                try suite.deriveTreeSecret(secret: t.secret.bytes, label: t.label, generation: t.generation, length: t.length), t.out.bytes)

            let s = sign_with_label
            try Conformance.expect(suite.verifyWithLabel(publicKey: s.pub.bytes, label: s.label, content: s.content.bytes, signature: s.signature.bytes),
                                   "sign_with_label: vector signature does not verify")
            let fresh = try suite.signWithLabel(privateKey: s.priv.bytes, label: s.label, content: s.content.bytes)
            try Conformance.expect(suite.verifyWithLabel(publicKey: s.pub.bytes, label: s.label, content: s.content.bytes, signature: fresh),
                                   "sign_with_label: own signature does not verify")
            try Conformance.expect(!suite.verifyWithLabel(publicKey: s.pub.bytes, label: s.label + "x", content: s.content.bytes, signature: fresh),
                                   "sign_with_label: signature verifies under a different label")

            let c = encrypt_with_label
            let decrypted = try suite.decryptWithLabel(privateKey: c.priv.bytes, label: c.label, context: c.context.bytes,
                                                       ciphertext: HPKECiphertext(kemOutput: c.kem_output.bytes, ciphertext: c.ciphertext.bytes))
            try Conformance.expectEqual("encrypt_with_label: decrypted", decrypted, c.plaintext.bytes)
            let sealed = try suite.encryptWithLabel(publicKey: c.pub.bytes, label: c.label, context: c.context.bytes, plaintext: c.plaintext.bytes)
            let reopened = try suite.decryptWithLabel(privateKey: c.priv.bytes, label: c.label, context: c.context.bytes, ciphertext: sealed)
            try Conformance.expectEqual("encrypt_with_label: round trip", reopened, c.plaintext.bytes)
        }
    }
}
