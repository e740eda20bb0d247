import KithGroups
import KithIdentity

/// A per-conversation identity (docs/GROUPS.md, "Personas"): a full Kith identity of its own, created for one
/// conversation, sealed on this device, never published and never linked to the main identity on the wire.
public struct Persona: Sendable, Equatable {
    /// Where a persona stands.
    public enum State: String, Sendable, Equatable {
        /// Created; no conversation recorded yet (a join under it is under way).
        case pending
        /// It holds its conversation.
        case active
        /// Its conversation's explosion time has passed: it is deleted the next time the main account opens.
        case expired
    }

    /// The local id: random, device-only, never sent (32 lowercase hex characters).
    public let id: String
    /// The persona's own feed id (what members of its conversation know it by).
    public let feedID: FeedID
    /// The conversation it was created for, once recorded.
    public let groupID: GroupID?
    /// The conversation's local name, if known.
    public let conversation: String?
    /// When it was created (Unix seconds).
    public let createdAt: Int64
    /// When its conversation explodes (Unix seconds), if it does; the persona is deleted then.
    public let expiresAt: Int64?
    /// Where it stands.
    public let state: State
}
