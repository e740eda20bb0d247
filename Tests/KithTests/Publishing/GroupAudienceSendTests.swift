@testable import Kith
import KithFeed
import KithGroups
import Testing

/// Every public send path that takes an audience goes through the one audience dispatcher, so a `group:` audience
/// works on each of them (a post with attachments was once refused as "not yet supported").
@Suite struct GroupAudienceSendTests {
    /// The public send paths that take an audience.
    enum SendPath: String, CaseIterable, Sendable {
        case publish, post, postWithAttachments, react
    }

    /// Sends one message on `path` to `group`, reacting to `target` for a reaction.
    static func send(_ path: SendPath, from account: Account, to group: GroupID, target: MessageID) async throws -> Envelope {
        let audience = Audience.group(group.string)
        switch path {
        case .publish: return try await account.publishing.publish(.post(Post(body: "published")), audience: audience)
        case .post: return try await account.publishing.post("posted", audience: audience)
        case .postWithAttachments: return try await account.publishing.post("with a photo", audience: audience, attachments: [Array("photo".utf8)])
        case .react: return try await account.publishing.react(to: target, emoji: "👍", audience: audience)
        }
    }

    @Test(arguments: SendPath.allCases)
    func aGroupAudienceReachesTheMembers(path: SendPath) async throws {
        let (alice, bob, _, group) = try await GroupConversationTests.trio()
        let first = try await alice.groups.send(group, text: "saturday?")
        let sent = try await Self.send(path, from: alice, to: group, target: first.messageID)
        #expect(sent.audience == .group(group.string))
        try await GroupConversationTests.deliver(alice, to: bob)
        for blob in try await alice.publishing.exportBlobs() { try await bob.publishing.importBlob(blob) }
        let received = try #require(try await bob.groups.messages(group).first { $0.messageID == sent.messageID })
        switch path {
        case .publish: #expect(GroupConversationTests.texts([received]) == ["published"])
        case .post: #expect(GroupConversationTests.texts([received]) == ["posted"])
        case .postWithAttachments:
            #expect(GroupConversationTests.texts([received]) == ["with a photo"])
            #expect(try await bob.publishing.attachment(of: sent.messageID, index: 0) == Array("photo".utf8))
        case .react:
            guard case .reaction(let reaction)? = received.content else {
                Issue.record("not a reaction: \(String(describing: received.content))")
                return
            }
            #expect(reaction.targetMessage == first.messageID && reaction.emoji == "👍")
        }
    }
}
