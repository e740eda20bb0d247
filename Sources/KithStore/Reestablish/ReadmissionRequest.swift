/// A readmission request a member received (docs/CONTINUITY.md section 8), a row of `readmission_requests`.
public struct ReadmissionRequest: Sendable, Equatable {
    /// How the request was settled.
    public enum State: String, Sendable, Equatable {
        /// Not looked at yet.
        case pending
        /// The requester's old leaf was replaced by its KeyPackage in one commit.
        case honoured
        /// Refused; ``ReadmissionRequest/reason`` says why.
        case refused
    }

    /// The KeyPackage's reference (base64url), the request's identity.
    public let keyPackageReference: String
    /// The group the requester asks to be readmitted to.
    public let groupID: String
    /// The requester's feed id.
    public let requester: String
    /// How it was settled.
    public let state: State
    /// Why it was refused.
    public let reason: String?
    /// The requester's warrant naming this identity as proxy, when the requester is (was) the group's committer
    /// (the encoded `CommitterReadmission`; docs/CONTINUITY.md section 8).
    public let committerReadmission: [UInt8]?
}
