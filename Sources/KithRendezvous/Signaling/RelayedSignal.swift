/// A relayed message as the receiving member gets it: the payload plus `from` (the sender's
/// ``ClientID``) and `roomId`.
public struct RelayedSignal: Sendable, Hashable {
    /// The sending connection.
    public var from: ClientID
    /// The room both members are in.
    public var roomID: RoomID
    /// What was sent.
    public var payload: SignalPayload

    /// Creates a relayed message.
    public init(from: ClientID, roomID: RoomID, payload: SignalPayload) {
        self.from = from
        self.roomID = roomID
        self.payload = payload
    }
}
