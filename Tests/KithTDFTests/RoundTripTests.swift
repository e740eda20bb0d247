import Testing
@testable import KithTDF

/// Encrypt, serialize, parse and decrypt for every curve, cipher, binding, policy kind and version Kith handles.
@Suite struct RoundTripTests {
    static let curves: [NanoTDF.Curve] = [.secp256r1, .secp384r1, .secp521r1]
    static let policy = Array(#"{"uuid":"kith","body":{"dataAttributes":[],"dissem":[]}}"#.utf8)

    static func policies() throws -> [NanoTDF.EncryptionConfiguration.PolicyInput] {
        [.plaintext(policy), .encrypted(policy), .remote(try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example.com/policy"))]
    }

    @Test(arguments: RoundTripTests.curves, NanoTDF.Cipher.allCases)
    func curveAndCipher(curve: NanoTDF.Curve, cipher: NanoTDF.Cipher) throws {
        let recipient = try NanoTDF.PrivateKey(generatingOn: curve)
        for binding in [NanoTDF.EncryptionConfiguration.BindingMode.gmac, .ecdsa] {
            for policy in try Self.policies() {
                for version in NanoTDF.Version.allCases {
                    let plaintext = Array("hello \(curve) \(cipher) \(binding) \(version)".utf8)
                    let configuration = NanoTDF.EncryptionConfiguration(
                        kas: try TDFVectors.kas(), policy: policy, binding: binding, cipher: cipher, version: version)
                    let nano = try NanoTDF.encrypt(plaintext, to: recipient.publicKey, configuration: configuration)
                    let bytes = nano.serialized
                    #expect(NanoTDF.hasMagic(bytes))
                    let parsed = try NanoTDF(parsing: bytes)
                    #expect(parsed == nano)
                    #expect(parsed.serialized == bytes)
                    #expect(try parsed.decrypt(using: recipient) == plaintext)
                    if case .remote = policy {
                        #expect(throws: NanoTDFError.policyNotDecryptable) { try parsed.policy(using: recipient) }
                    } else {
                        #expect(try parsed.policy(using: recipient) == Self.policy)
                    }
                    if version == .v13 {
                        #expect(parsed.header.recipientPublicKey?.key == recipient.publicKey.compressedRepresentation)
                    }
                }
            }
        }
    }

    @Test(arguments: [0, 1, 15, 16, 17, 280, 4096])
    func plaintextSizes(size: Int) throws {
        let recipient = try TDFVectors.recipient()
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let nano = try NanoTDF.encrypt(
            plaintext, to: recipient.publicKey,
            configuration: .init(kas: try TDFVectors.kas(), policy: .encrypted(Self.policy)))
        #expect(nano.payload.length == 3 + size + 16)
        #expect(try NanoTDF(parsing: nano.serialized).decrypt(using: recipient) == plaintext)
    }

    @Test func signedRoundTrip() throws {
        let recipient = try TDFVectors.recipient()
        let creator = P256SigningKey.make()
        let nano = try NanoTDF.encrypt(
            Array("signed".utf8), to: recipient.publicKey,
            configuration: .init(kas: try TDFVectors.kas(), policy: .plaintext(Self.policy)))
        let signed = try nano.signed(with: creator)
        let parsed = try NanoTDF(parsing: signed.serialized)
        #expect(parsed.header.hasSignature)
        try parsed.verifySignature()
        #expect(try parsed.decrypt(using: recipient) == Array("signed".utf8))
    }

    @Test func ivIsNeverZeroAndEphemeralKeysAreFresh() throws {
        let recipient = try TDFVectors.recipient()
        var ephemeralKeys = Set<[UInt8]>()
        for _ in 0..<64 {
            let nano = try NanoTDF.encrypt(
                [1], to: recipient.publicKey, configuration: .init(kas: try TDFVectors.kas(), policy: .encrypted(Self.policy)))
            #expect(nano.payload.iv != [0, 0, 0])
            ephemeralKeys.insert(nano.header.ephemeralPublicKey)
        }
        #expect(ephemeralKeys.count == 64)
    }
}
