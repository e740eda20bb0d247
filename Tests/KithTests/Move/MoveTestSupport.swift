import Crypto
import Foundation
import KithAccountFixtures
import KithContinuity
import KithIdentity
import KithStore
import KithSync
@testable import Kith

/// Homes and peers for the device-move tests: Alice lives in a home on disk, Bob in memory.
enum MoveTestSupport {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kith-move-\(name)-\(UUID().uuidString)")
    }

    static func texts(_ messages: [StoredMessage]) -> [String] {
        messages.compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
    }

    /// Alice (in a home, passphrase "old") and Bob are contacts; each posted, and each imported the other's feed.
    static func aliceAtHomeWithBob() async throws -> (alice: Account, home: AccountHome, bob: Account) {
        let home = AccountHome(directory: temporary("old"))
        let alice = try await Account.create(home: home, scrypt: .testing, passphrase: { "old" }, clock: { MetAccounts.now })
        let bob = try MetAccounts.account(0xB0)
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await alice.publishing.post("alice before the move", audience: .contacts)
        try await alice.publishing.post("a note to self", audience: .selfOnly)
        try await bob.publishing.post("bob's post", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        return (alice, home, bob)
    }

    /// The facade error `body` throws, nil when it returns (or throws something else).
    static func failure<T>(_ body: () async throws -> T) async -> KithError? {
        do {
            _ = try await body()
            return nil
        } catch let error as KithError {
            return error
        } catch {
            return nil
        }
    }

    /// The move error inside a facade error.
    static func moveError(_ error: KithError?) -> MoveError? {
        if case .continuity(.move(let move))? = error { return move }
        return nil
    }

    /// Whether the home directory is absent or empty.
    static func isEmpty(_ home: AccountHome) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.directory.path)) ?? []).isEmpty
    }

    /// A code for `receiver` whose secret is wrong.
    static func withWrongSecret(_ code: MoveCode) throws -> MoveCode {
        try MoveCode(host: code.host, port: code.port, receiverStaticKey: code.receiverStaticKey, secret: code.secret.map { $0 ^ 0x5A })
    }

    /// A hand-driven sender: it dials `code` and proves it, then the test speaks the protocol.
    static func hostileSender(_ code: MoveCode, proving: Bool = true) async throws -> MoveChannel {
        // The real sender's idle timeout (180 s), not TCP's 30 s default: a loaded machine can take longer to answer.
        let transport = try await TCPTransport.connect(host: code.host, port: code.port, idleTimeout: MoveLimits.idleTimeoutSeconds)
        let configuration = SecureLinkConfiguration(
            localStatic: Curve25519.KeyAgreement.PrivateKey(), acceptedPatterns: [.ik], isAllowed: { _ in true })
        let link = try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: code.receiverStaticKey)
        let channel = MoveChannel(link: link)
        if proving {
            try await channel.send(.proof(MoveKeys(secret: code.secret, handshakeHash: link.handshakeHash).proof))
            guard try await channel.receive() == .accepted else { throw MoveError.wrongCode }
        }
        return channel
    }

    /// A receiver listening on a new home, already waiting for a sender (passphrase "new").
    static func waitingReceiver(
        expecting expected: FeedID? = nil
    ) async throws -> (home: AccountHome, receiver: MoveReceiver, receiving: Task<(account: Account, report: MoveReceiveReport), Error>) {
        let home = AccountHome(directory: temporary("new"))
        let receiver = try await MoveReceiver.listen(home: home)
        let receiving = Task { try await receiver.receive(scrypt: .testing, passphrase: { "new" }, expectedFeedID: expected, clock: { MetAccounts.now }) }
        return (home, receiver, receiving)
    }

    /// The old home still opens and the old account still posts.
    static func stillWorks(_ alice: Account, _ home: AccountHome) async throws -> Bool {
        try await alice.publishing.post("still here", audience: .contacts)
        return try await Account.open(home: home, passphrase: { "old" }).feedID == alice.feedID
    }

    /// A receiver on a new home against a hand-driven sender that `drive` speaks for; returns the receiver's error and
    /// the home, after checking that the home and the staging file are left empty.
    static func receiverFailure(
        proving: Bool = true, _ drive: (MoveChannel) async throws -> Void
    ) async throws -> (error: KithError?, homeIsEmpty: Bool, stagingIsGone: Bool) {
        let (home, receiver, receiving) = try await waitingReceiver()
        let sender = try await hostileSender(receiver.code, proving: proving)
        try await drive(sender)
        let error = await failure { try await receiving.value }
        await sender.link.close()
        let staging = home.directory.deletingLastPathComponent().appendingPathComponent(".\(home.directory.lastPathComponent).move-incoming")
        return (error, isEmpty(home), !FileManager.default.fileExists(atPath: staging.path))
    }

    /// A hand-driven receiver: it listens, and hands the test the first link and the code naming it.
    static func hostileReceiver() async throws -> (code: MoveCode, links: AsyncStream<MoveChannel>, listener: TCPSyncListener) {
        let listener = try await TCPSyncListener.bind(host: "127.0.0.1", port: 0, idleTimeout: MoveLimits.idleTimeoutSeconds)
        let key = Curve25519.KeyAgreement.PrivateKey()
        let code = try MoveCode(host: "127.0.0.1", port: listener.port, receiverStaticKey: Array(key.publicKey.rawRepresentation),
                                secret: [UInt8](repeating: 7, count: 32))
        let configuration = SecureLinkConfiguration(localStatic: key, acceptedPatterns: [.ik], isAllowed: { _ in true })
        let (links, continuation) = AsyncStream<MoveChannel>.makeStream()
        Task {
            for await transport in listener.connections {
                if let link = try? await SecureLink.accept(over: transport, configuration: configuration) {
                    continuation.yield(MoveChannel(link: link))
                }
            }
            continuation.finish()
        }
        return (code, links, listener)
    }
}
