/// The stored form of an epoch's secrets: the eleven derived values, in declaration order, each `opaque<V>` of the
/// suite's secret size.
extension EpochSecrets {
    /// Encodes the secrets.
    func encodeState(to writer: inout TLSWriter) {
        for secret in [joinerSecret, welcomeSecret, senderDataSecret, encryptionSecret, exporterSecret, epochAuthenticator, externalSecret,
                       confirmationKey, membershipKey, resumptionPSK, initSecret] {
            writer.writeOpaque(secret)
        }
    }

    /// Decodes ``encodeState(to:)`` for `suite`.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        var values: [[UInt8]] = []
        for _ in 0..<11 {
            let value = try reader.readOpaque()
            guard value.count == suite.secretSize else {
                throw MLSCodecError.invalidLength(field: "EpochSecrets", expected: suite.secretSize, actual: value.count)
            }
            values.append(value)
        }
        self.suite = suite
        joinerSecret = values[0]
        welcomeSecret = values[1]
        senderDataSecret = values[2]
        encryptionSecret = values[3]
        exporterSecret = values[4]
        epochAuthenticator = values[5]
        externalSecret = values[6]
        confirmationKey = values[7]
        membershipKey = values[8]
        resumptionPSK = values[9]
        initSecret = values[10]
    }
}
