/// Every fuzz target, by name.
public enum FuzzTargets {
    /// The targets in the order `kith-fuzz list` prints them.
    public static let all: [FuzzTarget] = [
        .canonicalJSON, .textEncodings,
        .feedEnvelope, .feedChain, .feedContent, .contactsRecipientMap,
        .contactCard, .compactCard, .cardPhase, .vaultFile,
        .syncRecords, .syncReassembly, .noiseHandshake,
        .directMessage, .prekeys,
        .mlsMessage, .mlsWelcome, .mlsRatchetTree, .groupPolicy,
        .invite, .conversationMetadata, .inviteExchange,
        .nanoTDF, .poolExchange,
        .webPushMessage, .vapidAndKnocks,
        .signaling, .restBodies, .relayMessage,
        .recoveryFormats, .moveFormats, .backupReader,
    ]

    /// The target named `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
