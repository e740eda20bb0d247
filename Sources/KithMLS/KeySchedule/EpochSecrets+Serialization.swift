/// The stored form of an epoch's key schedule outputs, part of a serialized ``GroupState``: the eleven secrets in
/// declaration order, each an `opaque<V>` of `Nh` bytes.
extension EpochSecrets {
    /// Writes every secret of the epoch.
    func encodeState(to writer: inout TLSWriter) {
        for secret in [joinerSecret, welcomeSecret, senderDataSecret, encryptionSecret, exporterSecret, epochAuthenticator, externalSecret,
                       confirmationKey, membershipKey, resumptionPSK, initSecret] {
            writer.writeOpaque(secret)
        }
    }

    /// Reads secrets written by ``encodeState(to:)``, each exactly `Nh` bytes of `suite`.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        func next(_ field: String) throws -> [UInt8] { try reader.readOpaque(exactly: suite.secretSize, field: field) }
        self.suite = suite
        joinerSecret = try next("joiner_secret")
        welcomeSecret = try next("welcome_secret")
        senderDataSecret = try next("sender_data_secret")
        encryptionSecret = try next("encryption_secret")
        exporterSecret = try next("exporter_secret")
        epochAuthenticator = try next("epoch_authenticator")
        externalSecret = try next("external_secret")
        confirmationKey = try next("confirmation_key")
        membershipKey = try next("membership_key")
        resumptionPSK = try next("resumption_psk")
        initSecret = try next("init_secret")
    }
}
