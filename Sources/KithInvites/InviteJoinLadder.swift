import Crypto
import KithCanonical

/// The creator's checks of a join request, in the order of Convos' `InviteCoordinator` with Kith's additions
/// (docs/INVITES.md, "Creator checks"). Pure: the caller supplies the state and records the outcome.
///
/// Order: already handled → invite expired → creator mismatch → signature → conversation exploded (payload time) →
/// token → group exists → group exploded → tag equals the group's current tag → single use not consumed →
/// requester not a member. Cheap checks that need no secret come first; nothing after the signature check runs for
/// a forged invite.
public struct InviteJoinLadder: Sendable {
    /// What the creator knows of the group a token names.
    public struct GroupView: Sendable, Equatable {
        /// The group's current invite tag (from its conversation metadata).
        public var tag: String
        /// True once the group exploded or ended for this identity.
        public var exploded: Bool
        /// True when the requester is a member already.
        public var requesterIsMember: Bool

        /// Creates a view.
        public init(tag: String, exploded: Bool, requesterIsMember: Bool) {
            self.tag = tag
            self.exploded = exploded
            self.requesterIsMember = requesterIsMember
        }
    }

    /// An accepted request: the group to add the requester to.
    public struct Admission: Sendable, Equatable {
        /// The group id the token carried.
        public let groupID: String
        /// The invite's id (``inviteID(of:)``), to consume when the invite is single-use.
        public let inviteID: String
        /// True when the invite is single-use: the caller consumes ``inviteID`` in the transaction that adds.
        public let singleUse: Bool
        /// The invite's tag.
        public let tag: String
        /// True when the requester is a member already and the caller asked to readmit members: the commit replaces
        /// its old leaf (the answer to a Welcome lost on the way, docs/INVITES.md "A lost Welcome").
        public let readmission: Bool
    }

    /// The creator's invite key.
    public let key: InviteSigningKey
    /// The creator's inbox id (its feed id).
    public let inboxID: InboxID

    /// A ladder for one creator.
    public init(key: InviteSigningKey, inboxID: InboxID) {
        self.key = key
        self.inboxID = inboxID
    }

    /// An invite's stable id: base64url of SHA-256 of its payload bytes as signed (a re-signed or malleated copy of
    /// the same payload has the same id).
    public static func inviteID(of invite: SignedInvite) -> String {
        Base64URL.encode(SHA256.hash(data: invite.payloadBytes))
    }

    /// Runs every check in order.
    ///
    /// - Parameters:
    ///   - code: the invite code from the request.
    ///   - handled: the request's message id was handled before.
    ///   - now: Unix seconds.
    ///   - group: the creator's view of a group id (nil: no such active group).
    ///   - consumed: whether a single-use invite id was consumed (by someone else than the requester, when
    ///     `readmitsMembers`).
    ///   - readmitsMembers: admit a requester that is a member already (``Admission/readmission``) instead of refusing
    ///     it with ``InviteJoinRefusal/alreadyMember``. Only where the requester proved it holds the member's keys and
    ///     a Welcome can have been lost (the invite exchange over a link).
    /// - Throws: the first ``InviteJoinRefusal`` that applies.
    public func check(
        code: String, handled: Bool, now: Int64, group: (String) -> GroupView?, consumed: (String) -> Bool,
        readmitsMembers: Bool = false
    ) throws(InviteJoinRefusal) -> Admission {
        if handled { throw .alreadyHandled }
        let invite: SignedInvite
        do throws(InviteError) {
            invite = try InviteCode.decode(InviteLink(parsing: code).code)
        } catch {
            throw .unreadable(error)
        }
        let payload = invite.payload
        if let expires = payload.expiresAtUnix, expires < now { throw .inviteExpired(expiresAtUnix: expires) }
        guard ConstantTime.equals(payload.creatorInboxID.bytes, inboxID.bytes) else { throw .creatorMismatch }
        do throws(InviteError) { try invite.verify(expectedSigner: key.publicKey) } catch { throw .badSignature }
        if let explodes = payload.conversationExpiresAtUnix, explodes < now { throw .conversationExploded }
        let groupID: String
        do throws(InviteError) {
            groupID = try payload.conversationToken.open(creatorKey: key, creatorInboxID: inboxID)
        } catch {
            throw .tokenInvalid
        }
        guard let view = group(groupID) else { throw .groupNotFound }
        if view.exploded { throw .conversationExploded }
        guard payload.tag.utf8.elementsEqual(view.tag.utf8) else { throw .tagMismatch }
        let id = Self.inviteID(of: invite)
        if payload.expiresAfterUse, consumed(id) { throw .alreadyUsed }
        if view.requesterIsMember, !readmitsMembers { throw .alreadyMember }
        return Admission(
            groupID: groupID, inviteID: id, singleUse: payload.expiresAfterUse, tag: payload.tag, readmission: view.requesterIsMember)
    }
}
