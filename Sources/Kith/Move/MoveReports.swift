import KithContinuity

/// The stages a move reports progress for.
public enum MoveStage: String, Sendable {
    /// The old device writes the sealed stream (records done of the total).
    case preparing
    /// Bytes of the stream sent or received.
    case transferring
    /// The new device verifies and imports the stream (records done of the total).
    case restoring
}

/// Progress of a move: the stage, the amount done and the total (records or bytes).
public typealias MoveProgress = @Sendable (_ stage: MoveStage, _ done: UInt64, _ total: UInt64) -> Void

/// What `Account.moveSend(to:…)` did: the identity went to the new device and this home was wiped.
public struct MoveSendReport: Sendable {
    /// The six digits both screens showed.
    public let confirmation: String
    /// Bytes of the sealed stream sent.
    public let streamBytes: UInt64
    /// The new device's own feed head after its `device_migration` rotation.
    public let newDeviceHead: UInt64
}

/// What `MoveReceiver.receive(…)` did on the new device.
public struct MoveReceiveReport: Sendable {
    /// The six digits both screens showed.
    public let confirmation: String
    /// Bytes of the sealed stream received.
    public let streamBytes: UInt64
    /// What was carried and what must be re-established (as for a restore).
    public let restore: RestoreReport
    /// The own feed head after the `device_migration` rotation.
    public let ownHead: UInt64
}
