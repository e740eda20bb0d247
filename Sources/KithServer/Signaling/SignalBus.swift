/// Carries ``SignalEvent``s to connections by address.
///
/// ``LocalSignalBus`` reaches the connections of this node; a shared store's fan-out (PostgreSQL
/// `LISTEN`/`NOTIFY`) will carry events to other nodes behind the same protocol.
protocol SignalBus: Sendable {
    /// Hands `event` to the connection at `address`; dropped when it is gone.
    func deliver(_ event: SignalEvent, to address: MemberAddress)
}
