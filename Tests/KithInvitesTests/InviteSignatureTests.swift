import Crypto
import KithInvites
import Testing

/// secp256k1 recoverable signatures over SHA-256 of the payload bytes.
struct InviteSignatureTests {
    /// The secp256k1 group order n.
    static let order = hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")

    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var value = Int(a[index]) - Int(b[index]) - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 256 }
            out[index] = UInt8(value)
        }
        return out
    }

    @Test func signRecoverRoundTrip() throws {
        let key = InviteSigningKey.generate()
        let message = Array("payload".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.bytes.count == 65)
        #expect(signature.recoveryID <= 3)
        #expect(try signature.recoverSigner(of: message) == key.publicKey)
        #expect(key.publicKey.matches(key.publicKey.compressed))
        #expect(key.publicKey.matches(key.publicKey.uncompressed))
        #expect(!InviteSigningKey.generate().publicKey.matches(key.publicKey.compressed))
    }

    @Test func deterministicRFC6979MatchesPython() throws {
        for vector in try PythonInviteVector.all() {
            let key = try InviteSigningKey(rawRepresentation: hex(vector.private_key))
            #expect(hexString(key.publicKey.uncompressed) == vector.public_key)
            #expect(hexString(try key.signature(for: hex(vector.payload)).bytes) == vector.signature, "\(vector.name)")
        }
    }

    @Test func highSIsRejected() throws {
        let key = InviteSigningKey.generate()
        let good = try key.signature(for: Array("x".utf8)).bytes
        // (r, n - s, recid ^ 1) recovers the same key: the malleated twin Kith refuses.
        let highS = Array(good[0..<32]) + Self.subtract(Self.order, Array(good[32..<64])) + [good[64] ^ 1]
        #expect(throws: InviteError.highS) { try InviteSignature(highS) }
    }

    @Test func malformedSignaturesAreRejected() throws {
        let good = try InviteSigningKey.generate().signature(for: [1]).bytes
        #expect(throws: InviteError.invalidSignatureLength(64)) { try InviteSignature(good.prefix(64)) }
        #expect(throws: InviteError.invalidSignatureLength(66)) { try InviteSignature(good + [0]) }
        #expect(throws: InviteError.invalidRecoveryID(4)) { try InviteSignature(good.prefix(64) + [4]) }
        #expect(throws: InviteError.signatureRecoveryFailed) { try InviteSignature([UInt8](repeating: 0, count: 65)) }
        // r = n is out of range.
        #expect(throws: InviteError.signatureRecoveryFailed) {
            try InviteSignature(Self.order + good[32..<64] + [0])
        }
    }

    @Test func wrongRecoveryIDRecoversAnotherKey() throws {
        let key = InviteSigningKey.generate()
        let message = Array("m".utf8)
        let good = try key.signature(for: message).bytes
        let flipped = try InviteSignature(good.prefix(64) + [good[64] ^ 1])
        // Either no point or a different key: never the signer.
        let recovered = try? flipped.recoverSigner(of: message)
        #expect(recovered != key.publicKey)
    }

    @Test func invalidPrivateKeys() {
        #expect(throws: InviteError.invalidPrivateKey) { try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: InviteError.invalidPrivateKey) { try InviteSigningKey(rawRepresentation: Self.order) }
        #expect(throws: InviteError.invalidPrivateKey) { try InviteSigningKey(rawRepresentation: [1, 2, 3]) }
        #expect(throws: InviteError.invalidPublicKey) { try InvitePublicKey([UInt8](repeating: 4, count: 65)) }
    }

    @Test func inboxIDBinding() throws {
        for vector in try PythonInviteVector.all() {
            let key = try InviteSigningKey(rawRepresentation: hex(vector.private_key))
            #expect(hexString(key.publicKey.address) == vector.address)
            let inbox = try InboxID(hex: vector.inbox_id)
            #expect(inbox.bindingNonce(for: key.publicKey) == vector.inbox_nonce)
            #expect(InboxID(owner: key.publicKey, nonce: vector.inbox_nonce).hex == vector.inbox_id)
        }
    }
}
