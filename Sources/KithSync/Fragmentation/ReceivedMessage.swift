/// A message whose chunks were all received, decoded and verified to hash to its id.
public struct ReceivedMessage: Hashable, Sendable {
    /// The verified message id.
    public var messageID: SyncMessageID
    /// The envelope bytes (decompressed when the body was compressed).
    public var envelope: [UInt8]

    /// Creates a received message.
    public init(messageID: SyncMessageID, envelope: [UInt8]) {
        self.messageID = messageID
        self.envelope = envelope
    }
}
