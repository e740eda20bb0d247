import KithMLS
/// A `key-schedule.json` case (RFC 9420 §8): five chained epochs.
public struct KeyScheduleVector: ConformanceVector {
    /// `key-schedule.json`.
    public static let fileName = "key-schedule.json"

    struct Exporter: Decodable, Sendable { let label: String; let context: HexString; let length: Int; let secret: HexString }
    struct Epoch: Decodable, Sendable {
        let tree_hash: HexString; let commit_secret: HexString; let psk_secret: HexString
        let confirmed_transcript_hash: HexString; let group_context: HexString
        let joiner_secret: HexString; let welcome_secret: HexString; let init_secret: HexString
        let sender_data_secret: HexString; let encryption_secret: HexString; let exporter_secret: HexString
        let epoch_authenticator: HexString; let external_secret: HexString; let confirmation_key: HexString
        let membership_key: HexString; let resumption_psk: HexString; let external_pub: HexString
        let exporter: Exporter
    }

    let cipher_suite: UInt16
    let group_id: HexString
    let initial_init_secret: HexString
    let epochs: [Epoch]

    /// Checks GroupContext bytes, every epoch secret, external_pub and the exporter for each epoch.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            var initSecret = initial_init_secret.bytes
            for (index, epoch) in epochs.enumerated() {
                let name = "epoch \(index)"
                let context = GroupContext(cipherSuite: suite.id, groupID: group_id.bytes, epoch: UInt64(index), treeHash: epoch.tree_hash.bytes,
                                           confirmedTranscriptHash: epoch.confirmed_transcript_hash.bytes, extensions: [])
                try Conformance.expectEqual("\(name) group_context", context.tlsEncoded, epoch.group_context.bytes)
                let secrets = try EpochSecrets(suite: suite, initSecret: initSecret, commitSecret: epoch.commit_secret.bytes,
                                               pskSecret: epoch.psk_secret.bytes, context: context)
                try Conformance.expectEqual("\(name) joiner_secret", secrets.joinerSecret, epoch.joiner_secret.bytes)
                try Conformance.expectEqual("\(name) welcome_secret", secrets.welcomeSecret, epoch.welcome_secret.bytes)
                try Conformance.expectEqual("\(name) welcome_secret (joiner view)",
                    try EpochSecrets.welcomeSecret(suite: suite, joinerSecret: secrets.joinerSecret, pskSecret: epoch.psk_secret.bytes), epoch.welcome_secret.bytes)
                try Conformance.expectEqual("\(name) init_secret", secrets.initSecret, epoch.init_secret.bytes)
                try Conformance.expectEqual("\(name) sender_data_secret", secrets.senderDataSecret, epoch.sender_data_secret.bytes)
                try Conformance.expectEqual("\(name) encryption_secret", secrets.encryptionSecret, epoch.encryption_secret.bytes)
                try Conformance.expectEqual("\(name) exporter_secret", secrets.exporterSecret, epoch.exporter_secret.bytes)
                try Conformance.expectEqual("\(name) epoch_authenticator", secrets.epochAuthenticator, epoch.epoch_authenticator.bytes)
                try Conformance.expectEqual("\(name) external_secret", secrets.externalSecret, epoch.external_secret.bytes)
                try Conformance.expectEqual("\(name) confirmation_key", secrets.confirmationKey, epoch.confirmation_key.bytes)
                try Conformance.expectEqual("\(name) membership_key", secrets.membershipKey, epoch.membership_key.bytes)
                try Conformance.expectEqual("\(name) resumption_psk", secrets.resumptionPSK, epoch.resumption_psk.bytes)
                try Conformance.expectEqual("\(name) external_pub", try secrets.externalKeyPair().publicKey, epoch.external_pub.bytes)
                // The exporter label is the literal text of the JSON string (see the vectors README).
                try Conformance.expectEqual("\(name) exporter",
                    try secrets.export(label: epoch.exporter.label, context: epoch.exporter.context.bytes, length: epoch.exporter.length),
                    epoch.exporter.secret.bytes)
                initSecret = secrets.initSecret
            }
        }
    }
}
