import Testing
@testable import KithTDF

/// Malformed and tampered inputs give typed errors, never a crash and never plaintext.
@Suite struct RejectionTests {
    static func sample(binding: NanoTDF.EncryptionConfiguration.BindingMode = .gmac,
                       policy: NanoTDF.EncryptionConfiguration.PolicyInput = .encrypted(Array("policy".utf8)),
                       cipher: NanoTDF.Cipher = .aes256gcm128) throws -> (NanoTDF, NanoTDF.PrivateKey) {
        let recipient = try TDFVectors.recipient()
        let nano = try NanoTDF.encrypt(
            Array("one-time message".utf8), to: recipient.publicKey,
            configuration: .init(kas: try TDFVectors.kas(), policy: policy, binding: binding, cipher: cipher))
        return (try nano.signed(with: P256SigningKey.make()), recipient)
    }

    static let vectorFiles = GeneratedVectorTests.files + [
        "upstream/opentdf-client-cpp__test_nano_tdf_is_valid__with_signature.ntdf",
        "upstream/opentdf-platform__examples__cmd__testdata__nano-valid.ntdf",
    ]

    @Test func truncationAtEveryLengthIsTyped() throws {
        var inputs = try Self.vectorFiles.map { try TDFVectors.file($0) }
        inputs.append(try Self.sample().0.serialized)
        inputs.append(try Self.sample(binding: .ecdsa, policy: .plaintext([1, 2, 3]), cipher: .aes256gcm96).0.serialized)
        for bytes in inputs {
            for length in 0..<bytes.count {
                do {
                    _ = try NanoTDF(parsing: bytes.prefix(length))
                    Issue.record("prefix of \(length)/\(bytes.count) bytes parsed")
                } catch {
                    switch error {
                    case .truncated, .payloadLengthTooSmall, .malformedPolicyBinding, .invalidPublicKey, .emptyPolicy,
                        .emptyResourceLocator, .policyShorterThanTag:
                        break
                    default:
                        Issue.record("prefix \(length)/\(bytes.count): unexpected \(error)")
                    }
                }
            }
            #expect(throws: NanoTDFError.trailingBytes(count: 1, offset: bytes.count)) {
                try NanoTDF(parsing: bytes + [0])
            }
        }
    }

    @Test func wrongMagicAndVersion() throws {
        let bytes = try Self.sample().0.serialized
        var badMagic = bytes
        badMagic[1] = 0x32
        #expect(throws: NanoTDFError.badMagic(bytes: [0x4C, 0x32, 0x4C])) { try NanoTDF(parsing: badMagic) }
        for version: UInt8 in [0, 11, 14, 63] {
            var other = bytes
            other[2] = 0x40 | version
            #expect(throws: NanoTDFError.unsupportedVersion(version)) { try NanoTDF(parsing: other) }
        }
        #expect(!NanoTDF.hasMagic([0x4C, 0x31]))
        #expect(!NanoTDF.hasMagic(badMagic))
    }

    @Test func oversizeLengthsAndUnknownCodes() throws {
        let (nano, _) = try Self.sample()
        let header = nano.header.serialized
        var bytes = nano.serialized
        // Payload length larger than what follows.
        bytes[header.count] = 0xFF
        #expect(throws: NanoTDFError.self) { try NanoTDF(parsing: bytes) }
        do { _ = try NanoTDF(parsing: bytes) } catch {
            guard case .truncated(let field, _, _, _) = error else { Issue.record("got \(error)"); return }
            #expect(field == "payload")
        }
        // Payload length below IV + tag.
        var short = nano.serialized
        short[header.count] = 0; short[header.count + 1] = 0; short[header.count + 2] = 18
        #expect(throws: NanoTDFError.payloadLengthTooSmall(length: 18, minimum: 19)) { try NanoTDF(parsing: short) }
        // KAS locator body length running past the input.
        var locator = nano.serialized
        locator[4] = 0xFF
        #expect(throws: NanoTDFError.self) { try NanoTDF(parsing: locator) }
        // Unknown protocol, identifier size, curve, cipher, policy type, reserved bits.
        let kasEnd = 3 + nano.header.kas.serialized.count
        var scheme = nano.serialized; scheme[3] = (scheme[3] & 0xF0) | 0x7
        #expect(throws: NanoTDFError.unknownProtocol(7, field: "KAS locator")) { try NanoTDF(parsing: scheme) }
        var kid = nano.serialized; kid[3] = (kid[3] & 0x0F) | 0x40
        #expect(throws: NanoTDFError.unknownIdentifierSize(4, field: "KAS locator")) { try NanoTDF(parsing: kid) }
        var curve = nano.serialized; curve[kasEnd] = 0x05
        #expect(throws: NanoTDFError.unknownCurve(5, field: "ephemeral curve")) { try NanoTDF(parsing: curve) }
        var reserved = nano.serialized; reserved[kasEnd] = 0x08
        #expect(throws: NanoTDFError.reservedBitsSet(field: "ECC and binding mode", value: 0x08)) { try NanoTDF(parsing: reserved) }
        var cipher = nano.serialized; cipher[kasEnd + 1] = (cipher[kasEnd + 1] & 0xF0) | 0x06
        #expect(throws: NanoTDFError.unknownCipher(6)) { try NanoTDF(parsing: cipher) }
        var policyType = nano.serialized; policyType[kasEnd + 2] = 0x04
        #expect(throws: NanoTDFError.unknownPolicyType(4)) { try NanoTDF(parsing: policyType) }
        var emptyPolicy = nano.serialized; emptyPolicy[kasEnd + 3] = 0; emptyPolicy[kasEnd + 4] = 0
        #expect(throws: NanoTDFError.emptyPolicy) { try NanoTDF(parsing: emptyPolicy) }
        var shortPolicy = nano.serialized; shortPolicy[kasEnd + 4] = 3
        #expect(throws: NanoTDFError.self) { try NanoTDF(parsing: shortPolicy) }
        var key = nano.serialized; key[header.count - 33] = 0x04
        #expect(throws: NanoTDFError.invalidPublicKey(field: "ephemeral public key")) { try NanoTDF(parsing: key) }
    }

    @Test func tooLargePlaintextAndLocatorFieldsAreRefusedOnWrite() throws {
        #expect(throws: NanoTDFError.emptyResourceLocator(field: "resource locator")) {
            try NanoTDF.ResourceLocator(scheme: .https, body: [UInt8]())
        }
        #expect(throws: NanoTDFError.self) { try NanoTDF.ResourceLocator(scheme: .https, body: [UInt8](repeating: 0x61, count: 256)) }
        #expect(throws: NanoTDFError.self) { try NanoTDF.ResourceLocator(scheme: .https, body: "a", identifier: [1, 2, 3]) }
        let recipient = try TDFVectors.recipient()
        let maximum = NanoTDFLimits.maximumPlaintextLength(tagSize: 16)
        #expect(throws: NanoTDFError.plaintextTooLarge(length: maximum + 1, maximum: maximum)) {
            try NanoTDF.encrypt(
                [UInt8](repeating: 0, count: maximum + 1), to: recipient.publicKey,
                configuration: .init(kas: try TDFVectors.kas(), policy: .plaintext([1])))
        }
    }

    /// Flipping any bit from the policy to the end either fails to parse or fails to decrypt: never wrong plaintext.
    @Test(arguments: [NanoTDF.EncryptionConfiguration.BindingMode.gmac, .ecdsa])
    func everyTamperedByteIsRejected(binding: NanoTDF.EncryptionConfiguration.BindingMode) throws {
        for policy in [NanoTDF.EncryptionConfiguration.PolicyInput.encrypted(Array("policy".utf8)), .plaintext(Array("policy".utf8))] {
            for cipher in [NanoTDF.Cipher.aes256gcm64, .aes256gcm128] {
                let (nano, recipient) = try Self.sample(binding: binding, policy: policy, cipher: cipher)
                let bytes = nano.serialized
                let policyStart = 3 + nano.header.kas.serialized.count + 2
                for index in policyStart..<bytes.count {
                    var tampered = bytes
                    tampered[index] ^= 0x01
                    guard let parsed = try? NanoTDF(parsing: tampered) else { continue }
                    #expect(throws: NanoTDFError.self, "byte \(index) of \(bytes.count) flipped") {
                        try parsed.decrypt(using: recipient)
                    }
                }
            }
        }
    }

    @Test func specificTamperingGivesSpecificErrors() throws {
        let (nano, recipient) = try Self.sample()
        let signatureSize = 33 + 64
        var payloadTag = nano.serialized
        payloadTag[payloadTag.count - signatureSize - 1] ^= 0x80
        let tagTampered = try NanoTDF(parsing: payloadTag)
        // The signature covers the payload, so it fails first; unsigned, the GCM tag does.
        #expect(throws: NanoTDFError.invalidSignature) { try tagTampered.decrypt(using: recipient) }
        let unsigned = try NanoTDF.encrypt(
            Array("x".utf8), to: recipient.publicKey, configuration: .init(kas: try TDFVectors.kas(), policy: .encrypted([9, 9])))
        var bytes = unsigned.serialized
        bytes[bytes.count - 1] ^= 0x01
        #expect(throws: NanoTDFError.authenticationFailed(field: "payload")) { try NanoTDF(parsing: bytes).decrypt(using: recipient) }
        var binding = unsigned.serialized
        binding[unsigned.header.serialized.count - 34] ^= 0x01
        #expect(throws: NanoTDFError.policyBindingMismatch) { try NanoTDF(parsing: binding).decrypt(using: recipient) }
        let other = try NanoTDF.PrivateKey(generatingOn: .secp256r1)
        #expect(throws: NanoTDFError.authenticationFailed(field: "encrypted policy")) { try unsigned.decrypt(using: other) }
        let p384 = try NanoTDF.PrivateKey(generatingOn: .secp384r1)
        #expect(throws: NanoTDFError.curveMismatch(expected: .secp256r1, actual: .secp384r1)) { try unsigned.decrypt(using: p384) }
    }

    @Test func randomGarbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<400 {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length >= 3 { bytes[0] = 0x4C; bytes[1] = 0x31; bytes[2] = 0x4C }
            _ = try? NanoTDF(parsing: bytes)
        }
    }
}
