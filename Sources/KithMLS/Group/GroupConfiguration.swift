/// Policies of a group member that the protocol leaves to the application.
public struct GroupConfiguration: Sendable {
    /// Returns the current Unix time in seconds for lifetime checks, or nil to skip them (tests with expired vectors).
    public var clock: @Sendable () -> UInt64?
    /// Number of past epochs whose resumption PSKs are kept.
    public var resumptionPSKEpochs: Int
    /// Number of past epochs whose message keys are kept to decrypt late application messages; older ones are erased
    /// (0 erases them at once). Defaults to ``defaultPastEpochsForApplicationMessages`` (3, like XMTP).
    public var pastEpochsForApplicationMessages: Int

    /// The default number of past epochs kept for late application messages (3, like XMTP).
    public static let defaultPastEpochsForApplicationMessages = MLSLimits.defaultRetainedEpochs

    /// Creates a configuration.
    public init(clock: @escaping @Sendable () -> UInt64?, resumptionPSKEpochs: Int = 8,
                pastEpochsForApplicationMessages: Int = GroupConfiguration.defaultPastEpochsForApplicationMessages) {
        self.clock = clock
        self.resumptionPSKEpochs = resumptionPSKEpochs
        self.pastEpochsForApplicationMessages = pastEpochsForApplicationMessages
    }
}
