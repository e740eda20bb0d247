import KithIdentity
import KithInvites
import Testing

/// The creator's checks, in order, each refusal typed, silent before the signature check.
struct InviteJoinLadderTests {
    static let creatorKey = try! InviteSigningKey(seed: try! Seed(bytes: [UInt8](repeating: 1, count: 32)))
    static let inbox = InboxID(feedID: try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 1, count: 32))).feedID)
    static let ladder = InviteJoinLadder(key: creatorKey, inboxID: inbox)
    static let now: Int64 = 1_790_000_000
    static let groupID = "Z3JvdXAtaWQtZm9yLWxhZGRlci10ZXN0cw"
    static let tag = "AbCdEf0123"

    static func code(
        key: InviteSigningKey = creatorKey, inbox: InboxID = inbox, tag: String = tag, expiresAt: Int64? = nil,
        explodesAt: Int64? = nil, singleUse: Bool = false, groupID: String = groupID
    ) throws -> String {
        let token = try ConversationToken.seal(conversationID: groupID, creatorKey: key, creatorInboxID: inbox)
        let payload = InvitePayload(
            conversationToken: token, creatorInboxID: inbox, tag: tag, conversationExpiresAtUnix: explodesAt,
            expiresAtUnix: expiresAt, expiresAfterUse: singleUse)
        return InviteCode.encode(try SignedInvite(signing: payload, with: key))
    }

    static let open = InviteJoinLadder.GroupView(tag: tag, exploded: false, requesterIsMember: false)

    func run(
        _ code: String, handled: Bool = false, group: InviteJoinLadder.GroupView? = open, consumed: Bool = false, readmits: Bool = false
    ) -> Result<InviteJoinLadder.Admission, InviteJoinRefusal> {
        do throws(InviteJoinRefusal) {
            return .success(try Self.ladder.check(
                code: code, handled: handled, now: Self.now, group: { _ in group }, consumed: { _ in consumed }, readmitsMembers: readmits))
        } catch {
            return .failure(error)
        }
    }

    func refusal(_ result: Result<InviteJoinLadder.Admission, InviteJoinRefusal>) -> InviteJoinRefusal? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test func aGoodRequestIsAdmitted() throws {
        let result = run(try Self.code(singleUse: true))
        guard case .success(let admission) = result else { Issue.record("refused: \(result)"); return }
        #expect(admission.groupID == Self.groupID && admission.singleUse && admission.tag == Self.tag)
        #expect(!admission.inviteID.isEmpty)
    }

    @Test func everyRungRefusesWithItsReason() throws {
        let stranger = try InviteSigningKey(seed: Seed(bytes: [UInt8](repeating: 2, count: 32)))
        #expect(refusal(run(try Self.code(), handled: true)) == .alreadyHandled)
        #expect(refusal(run("kith://invite/short")).map { if case .unreadable = $0 { true } else { false } } == true)
        #expect(refusal(run(try Self.code(expiresAt: Self.now - 1))) == .inviteExpired(expiresAtUnix: Self.now - 1))
        let otherInbox = InboxID(feedID: try Identity(seed: Seed(bytes: [UInt8](repeating: 2, count: 32))).feedID)
        #expect(refusal(run(try Self.code(key: stranger, inbox: otherInbox))) == .creatorMismatch)
        // A forger who names this creator but signs with another key.
        #expect(refusal(run(try Self.code(key: stranger))) == .badSignature)
        #expect(refusal(run(try Self.code(explodesAt: Self.now - 1))) == .conversationExploded)
        #expect(refusal(run(try Self.code(), group: nil)) == .groupNotFound)
        #expect(refusal(run(try Self.code(), group: .init(tag: Self.tag, exploded: true, requesterIsMember: false))) == .conversationExploded)
        #expect(refusal(run(try Self.code(), group: .init(tag: "Rotated999", exploded: false, requesterIsMember: false))) == .tagMismatch)
        #expect(refusal(run(try Self.code(singleUse: true), consumed: true)) == .alreadyUsed)
        // A multi-use invite ignores the consumed ledger.
        #expect(refusal(run(try Self.code(singleUse: false), consumed: true)) == nil)
        #expect(refusal(run(try Self.code(), group: .init(tag: Self.tag, exploded: false, requesterIsMember: true))) == .alreadyMember)
    }

    @Test func aMemberIsReadmittedOnlyWhenTheCallerAsks() throws {
        let member = InviteJoinLadder.GroupView(tag: Self.tag, exploded: false, requesterIsMember: true)
        #expect(refusal(run(try Self.code(), group: member)) == .alreadyMember)
        guard case .success(let admission) = run(try Self.code(), group: member, readmits: true) else {
            Issue.record("a member was not readmitted")
            return
        }
        #expect(admission.readmission)
        guard case .success(let fresh) = run(try Self.code(), readmits: true) else {
            Issue.record("a newcomer was refused")
            return
        }
        #expect(!fresh.readmission)
        // Every earlier rung still applies to a member: a revoked tag, a used single-use invite.
        #expect(refusal(run(try Self.code(), group: .init(tag: "Rotated999", exploded: false, requesterIsMember: true), readmits: true)) == .tagMismatch)
        #expect(refusal(run(try Self.code(singleUse: true), group: member, consumed: true, readmits: true)) == .alreadyUsed)
    }

    @Test func theOrderIsTheReferenceOrder() throws {
        let stranger = try InviteSigningKey(seed: Seed(bytes: [UInt8](repeating: 2, count: 32)))
        // Expired and forged: expiry is checked first (no cryptography for an expired invite).
        #expect(refusal(run(try Self.code(key: stranger, expiresAt: Self.now - 1))) == .inviteExpired(expiresAtUnix: Self.now - 1))
        // Forged and exploded: the signature first, so a forger learns nothing about the group.
        #expect(refusal(run(try Self.code(key: stranger, explodesAt: Self.now - 1))) == .badSignature)
        // Revoked and used up: the tag first.
        #expect(refusal(run(try Self.code(singleUse: true), group: .init(tag: "Rotated999", exploded: false, requesterIsMember: false), consumed: true)) == .tagMismatch)
    }

    @Test func refusalsBeforeTheSignatureAreSilent() {
        let silent: [InviteJoinRefusal] = [.alreadyHandled, .rateLimited, .unreadable(.invalidBase64URL), .inviteExpired(expiresAtUnix: 1), .creatorMismatch, .badSignature, .tokenInvalid]
        for refusal in silent { #expect(refusal.replyKind == nil) }
        #expect(InviteJoinRefusal.tagMismatch.replyKind == "conversation_expired")
        #expect(InviteJoinRefusal.conversationExploded.replyKind == "conversation_expired")
        #expect(InviteJoinRefusal.groupNotFound.replyKind == "conversation_not_found")
        #expect(InviteJoinRefusal.alreadyUsed.replyKind == "invite_used")
        #expect(InviteJoinRefusal.addFailed("x").replyKind == "generic_failure")
    }

    @Test func theBudgetDropsAFloodAfterAFewRefusals() {
        var budget = JoinRequestBudget(maxRefusals: 3, window: 60, maxTrackedRequesters: 2)
        for _ in 0..<3 {
            #expect(budget.admits("mallory", now: 100))
            budget.recordRefusal(of: "mallory", now: 100)
        }
        #expect(!budget.admits("mallory", now: 120))
        #expect(budget.admits("alice", now: 120))
        #expect(budget.admits("mallory", now: 161))
        // Bounded memory: a third requester evicts the oldest window.
        budget.recordRefusal(of: "a", now: 130)
        budget.recordRefusal(of: "b", now: 131)
        #expect(budget.admits("mallory", now: 140))
    }
}
