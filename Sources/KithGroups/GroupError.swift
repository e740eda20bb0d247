import KithIdentity

/// Why a group operation or a group message was refused.
///
/// A refused incoming message never changes the group: the state it was tried on is kept as it was.
public enum GroupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Text that is not base64url of 32 bytes where a group id was expected.
    case invalidGroupID(String)
    /// `content_enc` (or a `group_event`'s `mls_message`) is not the MLS message it must be.
    case malformedMessage(String)
    /// The MLS layer refused the message or the operation (decryption, signature, epoch, tree rules).
    case mls(String)
    /// The MLS sender of a message is not the feed whose envelope carries it.
    case senderMismatch(author: FeedID)
    /// A commit from someone who is not the group's committer (docs/GROUPS.md, "One history").
    case notCommitter(committer: FeedID)
    /// A proposal a non-committer may not make (adding or removing someone else, changing the group's settings).
    case forbiddenProposal(String)
    /// The group's context has no readable Kith policy extension.
    case missingPolicy
    /// A member credential that is not a Kith feed id.
    case invalidCredential
    /// This device is not (or no longer) a member of the group.
    case notAMember
    /// The operation needs the group's committer; this device is not it.
    case committerOnly(committer: FeedID)
    /// The feed is already a member.
    case alreadyMember(FeedID)
    /// The feed is not a member.
    case unknownMember(FeedID)
    /// No single member matches the text.
    case unknownMemberName(String)
    /// A KeyPackage that cannot be used (wrong owner, wrong suite, bad signature).
    case invalidKeyPackage(String)
    /// A stored group record that cannot be read back.
    case damagedState(String)
    /// No group matches the text.
    case unknownGroup(String)
    /// Several groups match the text.
    case ambiguousGroup(String)
    /// No KeyPackage of the contact is held here yet.
    case noKeyPackage(name: String, FeedID)
    /// The membership ended (removed, left or exploded): nothing more is sent or read.
    case ended(String)
    /// A handshake or Welcome larger than ``GroupWireMessage/maxHandshakeBytes`` (an add is then split).
    case handshakeTooLarge(Int)
    /// The conversation metadata is malformed or an edit of it breaks a rule.
    case metadata(ConversationMetadataError)
    /// The group carries no conversation metadata.
    case noMetadata
    /// A commit names a proposal this member has not received yet (it is in the proposer's feed): the commit waits.
    case missingProposal
    /// The Welcome does not carry the group's ratchet tree and its `mls_group_tree` blob is not here (yet).
    case ratchetTreeMissing
    /// A readmission of the committer through a proxy (``CommitterReadmission``) that breaks a rule.
    case committerReadmission(String)

    public var description: String {
        switch self {
        case .invalidGroupID(let text):
            "invalid group id '\(text.prefix(64))': expected 43 characters of base64url (32 bytes)"
        case .malformedMessage(let reason): "malformed group message: \(reason)"
        case .mls(let reason): "MLS refused it: \(reason)"
        case .senderMismatch(let author): "the MLS sender is not \(author), the feed that carries the message"
        case .notCommitter(let committer): "only the group's committer (\(committer)) may commit"
        case .forbiddenProposal(let what): "proposal not allowed: \(what)"
        case .missingPolicy: "the group has no Kith policy extension"
        case .invalidCredential: "a member credential is not a 32-byte feed id"
        case .notAMember: "this identity is not a member of the group"
        case .committerOnly(let committer):
            "only the group's committer (\(committer)) can do this; ask them, or ask them to hand the role over"
        case .alreadyMember(let feed): "\(feed) is already a member"
        case .unknownMember(let feed): "\(feed) is not a member of the group"
        case .unknownMemberName(let text): "no single member matches '\(text.prefix(64))'; see `kith group show`"
        case .invalidKeyPackage(let reason): "unusable KeyPackage: \(reason)"
        case .damagedState(let reason): "the stored group state cannot be read: \(reason)"
        case .unknownGroup(let text): "no group '\(text.prefix(64))'; see `kith groups`"
        case .ambiguousGroup(let text): "'\(text.prefix(64))' matches several groups; use more of the id"
        case .noKeyPackage(let name, let feed):
            "no KeyPackage of \(name) (\(feed)) yet: sync with \(name) (contacts are offered one automatically), or on \(name)'s device run `kith group keys share` for you, then sync"
        case .ended(let status): "this identity is no longer in the group (\(status))"
        case .handshakeTooLarge(let bytes):
            "an MLS message of \(bytes) bytes does not fit in one feed entry (\(GroupWireMessage.maxHandshakeBytes) at most)"
        case .metadata(let error): "conversation metadata: \(error.description)"
        case .noMetadata: "the group carries no conversation metadata"
        case .missingProposal: "the commit names a proposal not received yet; it waits for the proposer's feed"
        case .ratchetTreeMissing: "the Welcome's group tree travels apart (mls_group_tree) and has not arrived yet; it waits for the next sync"
        case .committerReadmission(let reason): "the committer's readmission through another member is refused: \(reason)"
        }
    }
}
