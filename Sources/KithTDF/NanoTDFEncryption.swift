import Crypto
import Foundation

extension NanoTDF {
    /// Encrypts `plaintext` for `recipient` with a fresh ephemeral key and a random non-zero IV.
    ///
    /// The payload key is HKDF-SHA256 of the ECDH x-coordinate (salt per ``Version/hkdfSalt``); the GCM nonce is
    /// `00×9 ‖ IV`; an encrypted policy uses the same key with the zero nonce, which is why the IV is never `000000`.
    /// The configuration's ``NanoTDFDialect`` can change the salt, the nonce layout and the binding
    /// (``EncryptionConfiguration/arkavoApp(kas:policy:)``); what its readers refuse is refused here.
    public static func encrypt(
        _ plaintext: some Collection<UInt8>, to recipient: PublicKey, configuration: EncryptionConfiguration
    ) throws(NanoTDFError) -> NanoTDF {
        let ephemeral = try PrivateKey(generatingOn: recipient.curve)
        return try encrypt(Array(plaintext), to: recipient, configuration: configuration, ephemeralKey: ephemeral, iv: randomIV())
    }

    /// The deterministic core of ``encrypt(_:to:configuration:)``: tests pin the ephemeral key and IV.
    static func encrypt(
        _ plaintext: [UInt8], to recipient: PublicKey, configuration: EncryptionConfiguration,
        ephemeralKey: PrivateKey, iv: [UInt8]
    ) throws(NanoTDFError) -> NanoTDF {
        let cipher = configuration.cipher
        let maximum = NanoTDFLimits.maximumPlaintextLength(tagSize: cipher.tagSize)
        guard plaintext.count <= maximum else { throw .plaintextTooLarge(length: plaintext.count, maximum: maximum) }
        guard iv.count == NanoTDFLimits.ivSize, iv != [0, 0, 0] else { throw .zeroPayloadIV }
        guard ephemeralKey.curve == recipient.curve else {
            throw .curveMismatch(expected: recipient.curve, actual: ephemeralKey.curve)
        }
        try configuration.validate(plaintextCount: plaintext.count)
        let dialect = configuration.dialect
        let key = try KeyDerivation.dataKey(
            privateKey: ephemeralKey, peerPublicKey: recipient, version: dialect.writeSalt(for: configuration.version))

        let body: Policy.Body
        switch configuration.policy {
        case .remote(let locator):
            body = .remote(locator)
        case .plaintext(let content):
            body = .embeddedPlaintext(content)
        case .encrypted(let content):
            guard !content.isEmpty else { throw .emptyPolicy }
            let sealed = try NanoTDFGCM.seal(content, key: key, nonce: NanoTDFGCM.policyNonce, tagSize: cipher.tagSize)
            body = .embeddedEncrypted(sealed.ciphertext + sealed.tag)
        }
        let binding: PolicyBinding
        switch configuration.binding {
        case .gmac where dialect.gmacBinding == .gcmTagZeroNonce: binding = try .gcmTag(over: body.wireForm, key: key)
        case .gmac: binding = .gmac(over: body.bindingMessage)
        case .ecdsa: binding = try .ecdsa(over: body.bindingMessage, ephemeralKey: ephemeralKey)
        }

        let sealed = try NanoTDFGCM.seal(
            plaintext, key: key, nonce: dialect.payloadNonce(iv: iv), tagSize: cipher.tagSize)
        let header = Header(
            version: configuration.version, kas: configuration.kas,
            recipientPublicKey: configuration.version == .v13
                ? (recipient.curve, recipient.compressedRepresentation) : nil,
            usesECDSABinding: configuration.binding == .ecdsa, ephemeralCurve: recipient.curve, cipher: cipher,
            policy: Policy(body: body, binding: binding),
            ephemeralPublicKey: ephemeralKey.publicKey.compressedRepresentation)
        return try NanoTDF(header: header, payload: Payload(iv: iv, ciphertext: sealed.ciphertext, tag: sealed.tag))
    }

    /// Three random bytes, never `000000` (reserved for the encrypted policy's nonce).
    static func randomIV() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        while true {
            let value = generator.next() & 0xFF_FFFF
            if value != 0 { return [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
        }
    }
}
