/// What a restored account has re-established so far (docs/CONTINUITY.md section 8): shown by `kith backup status`
/// and returned by ``Account/reestablish()``.
public struct ReestablishStatus: Sendable, Equatable, CustomStringConvertible {
    /// True while the restored-head guard stands: nothing is sent until the own head is learned or a
    /// `device_migration` rotation is published.
    public let waitingForHead: Bool
    /// Contacts sent a fresh prekey batch (with `pool_reset`).
    public let prekeysSent: Int
    /// Contacts to send one to.
    public let prekeysTotal: Int
    /// Groups this identity is a member of again.
    public let groupsReadmitted: Int
    /// Groups whose members were asked to readmit it (readmitted ones included).
    public let groupsRequested: Int
    /// Groups the backup listed.
    public let groupsTotal: Int
    /// The ids of the groups not readmitted yet (`kith backup readmit GROUP --via CONTACT` asks one member again).
    public let groupsWaiting: [String]

    /// True when nothing is left to do.
    public var isComplete: Bool { !waitingForHead && prekeysSent == prekeysTotal && groupsReadmitted == groupsTotal }

    /// For example "prekeys: sent to 3 of 5 contacts; groups: 1 of 2 readmitted (2 asked)".
    public var description: String {
        let head = waitingForHead ? "waiting to learn the own feed's head (sync with a contact, or rotate keys for device_migration); " : ""
        return head + "prekeys: sent to \(prekeysSent) of \(prekeysTotal) contacts; groups: \(groupsReadmitted) of \(groupsTotal) readmitted"
            + " (\(groupsRequested) asked)"
    }
}
