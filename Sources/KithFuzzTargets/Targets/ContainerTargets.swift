import Crypto
import KithInvites
import KithTDF

extension FuzzTarget {
    /// A NanoTDF in both ECDSA binding layouts, and its decryption with the recipient key of the
    /// published Kith-dialect vectors (so the vectors' own files decrypt); then in the Arkavo dialect
    /// with the recipient keys of the Arkavo vectors.
    static let nanoTDF = FuzzTarget(name: "nanotdf", summary: "KithTDF NanoTDF parsing (both binding layouts) and decryption") { input in
        let encodings: [NanoTDF.ECDSABindingEncoding] = [.lengthPrefixed, .fixed]
        for encoding in encodings {
            guard let container = try? NanoTDF(parsing: input, options: NanoTDF.ReadOptions(ecdsaBindingEncoding: encoding)) else { continue }
            FuzzProperty.require(container.serialized == input, "a parsed NanoTDF does not keep its bytes")
            if let key = ContainerFuzzKeys.recipient { _ = try? container.decrypt(using: .p256(key)) }
        }
        if let container = try? NanoTDF(parsing: input, options: NanoTDFDialect.arkavo.readOptions) {
            _ = try? container.decrypt(usingAnyOf: ContainerFuzzKeys.arkavo.map { .p256($0) }, dialect: .arkavo)
        }
    }

    /// Messages of the one-time key pool exchange between two contacts.
    static let poolExchange = FuzzTarget(name: "pool-exchange", summary: "KithTDF one-time key pool exchange messages") { input in
        guard let message = try? PoolExchangeMessage(decoding: input) else { return }
        let again = try? PoolExchangeMessage(decoding: message.encoded())
        FuzzProperty.require(again == message, "a pool exchange message does not survive re-encoding")
    }

    /// Messages of a stranger's invite exchange over the relay.
    static let inviteExchange = FuzzTarget(name: "invite-exchange", summary: "KithInvites stranger invite exchange messages") { input in
        guard let message = try? InviteExchangeMessage(decoding: input), let bytes = try? message.encoded() else { return }
        FuzzProperty.require((try? InviteExchangeMessage(decoding: bytes)) == message, "an invite exchange message does not survive re-encoding")
    }
}

/// The recipient key of `TestVectors/nanotdf/kith-dialect-v1.json` (scalar 0x21 repeated).
enum ContainerFuzzKeys {
    static let recipient: P256.KeyAgreement.PrivateKey? = try? P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x21, count: 32))
    /// The recipients of `arkavo-app-files-v1.json` and `kith-to-arkavo-v1.json` (scalars 0x31…01 and 0x32…01).
    static let arkavo: [P256.KeyAgreement.PrivateKey] = [0x31, 0x32].compactMap {
        try? P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: $0, count: 31) + [0x01])
    }
}
