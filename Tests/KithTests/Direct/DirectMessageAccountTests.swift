import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithRatchet
import KithStore
import Testing
@testable import Kith

/// Direct messages through feeds: sessions and prekeys in SQLite, decryption on import.
@Suite struct DirectMessageAccountTests {
    typealias Pair = (alice: Account, bob: Account)

    static func pair() async throws -> Pair {
        let (alice, bob) = try await ContactsAccountTests.pair()
        return (alice, bob)
    }

    /// Hands `to` everything `from` wrote (optionally in another order) and decrypts it.
    @discardableResult
    static func deliver(_ from: Account, to: Account, reorder: ([[UInt8]]) -> [[UInt8]] = { $0 }) async throws -> DirectOpenReport {
        _ = try await to.feed.importVerified(lines: reorder(try await from.feed.export()), identityKey: from.identity.publicKeys.identityKey)
        return try await to.direct.process()
    }

    static func texts(_ messages: [StoredMessage]) -> [String] {
        messages.compactMap { message in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
    }

    @Test func contactsExchangeDirectMessagesThroughTheirFeeds() async throws {
        let (alice, bob) = try await Self.pair()
        try await alice.direct.send("hello Bob", to: bob.feedID)
        try await alice.direct.send("are you there?", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == ["hello Bob", "are you there?"])
        try await bob.direct.send("yes, hi Alice", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        #expect(Self.texts(try await alice.direct.conversation(with: bob.feedID)) == ["hello Bob", "are you there?", "yes, hi Alice"])
        try await alice.direct.send("after the ratchet step", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)).last == "after the ratchet step")
        #expect(try await alice.direct.failures().isEmpty)
        #expect(try await bob.direct.failures().isEmpty)
    }

    @Test func messagesImportedOutOfOrderDecryptOnceEach() async throws {
        let (alice, bob) = try await Self.pair()
        for index in 0..<6 { try await alice.direct.send("message \(index)", to: bob.feedID) }
        let report = try await Self.deliver(alice, to: bob, reorder: { Array($0.reversed()) })
        #expect(report.failed.isEmpty)
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == (0..<6).map { "message \($0)" })
        // Importing again (a duplicate delivery) changes nothing and fails nothing.
        let again = try await Self.deliver(alice, to: bob)
        #expect(again.opened.isEmpty && again.failed.isEmpty)
        #expect(try await bob.direct.conversation(with: alice.feedID).count == 7)  // 6 posts + the prekey batch
    }

    @Test func onlyTheAddresseeCanRead() async throws {
        let (alice, bob) = try await Self.pair()
        let carol = try ContactsAccountTests.account(0xC0)
        try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        let message = try await alice.direct.send("for Bob only", to: bob.feedID)
        try await Self.deliver(alice, to: carol)
        #expect(try carol.store.message(message.messageID)?.content == nil)
        #expect(try await carol.direct.conversation(with: alice.feedID).isEmpty)
        try await Self.deliver(alice, to: bob)
        #expect(try bob.store.message(message.messageID)?.content == .post(Post(body: "for Bob only")))
    }

    @Test func handedOverPrekeysAreUsedOnceAndConsumedOnBothSides() async throws {
        let (alice, bob) = try await Self.pair()
        let handover = try await bob.direct.prekeyHandover(for: alice.feedID, count: 5)
        #expect(try await alice.direct.importPrekeyHandover(handover.text, from: bob.feedID) == 5)
        #expect(try await alice.direct.prekeyPool(with: bob.feedID)?.held == 5)
        try await alice.direct.send("uses a one-time prekey", to: bob.feedID)
        #expect(try await alice.direct.prekeyPool(with: bob.feedID)?.held == 4)
        #expect(try await bob.direct.prekeyPool(with: alice.feedID)?.handedRemaining == 5)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.direct.prekeyPool(with: alice.feedID)?.handedRemaining == 4)
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == ["uses a one-time prekey"])
        // Alice's first message also refilled Bob's pool of her prekeys (none handed yet).
        #expect(try await bob.direct.prekeyPool(with: alice.feedID)?.held == Account.defaultPrekeyBatch)
        #expect(try await alice.direct.prekeyPool(with: bob.feedID)?.needsRefill == false)
    }

    @Test func handoverRejections() async throws {
        let (alice, bob) = try await Self.pair()
        let carol = try ContactsAccountTests.account(0xC0)
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        let handover = try await bob.direct.prekeyHandover(for: alice.feedID, count: 3)
        func reason(_ error: any Error) -> PrekeyHandoverError? {
            if case .input(.prekeyHandover(let reason))? = error as? KithError { reason } else { nil }
        }
        // Claimed to come from Carol: signature does not verify with her key.
        await #expect { try await alice.direct.importPrekeyHandover(handover.text, from: carol.feedID) } throws: { reason($0) == .badSignature }
        // Tampered, truncated, not base64url.
        var tampered = handover.encoded
        tampered[70] ^= 0x01
        await #expect { try await alice.direct.importPrekeyHandover(Base64URL.encode(tampered), from: bob.feedID) } throws: { reason($0) == .badSignature }
        await #expect {
            try await alice.direct.importPrekeyHandover(Base64URL.encode(Array(handover.encoded.prefix(100))), from: bob.feedID)
        } throws: { reason($0) == .missingBatch }
        await #expect { try await alice.direct.importPrekeyHandover("not a handover!", from: bob.feedID) } throws: { reason($0) == .notBase64URL }
        var version = handover.encoded
        version[0] = 9
        await #expect { try await alice.direct.importPrekeyHandover(Base64URL.encode(version), from: bob.feedID) } throws: { reason($0) == .unknownVersion(9) }
        // Meant for someone else.
        let forCarol = try await alice.direct.prekeyHandover(for: carol.feedID, count: 2)
        await #expect { try await bob.direct.importPrekeyHandover(forCarol.text, from: alice.feedID) } throws: { reason($0) == .wrongRecipient(carol.feedID) }
        await #expect(throws: KithError.self) { try await bob.direct.prekeyHandover(for: alice.feedID, count: 0) }
        await #expect(throws: KithError.self) { try await bob.direct.prekeyHandover(for: alice.feedID, count: RatchetConstants.maxOneTimePrekeys + 1) }
        #expect(try await alice.direct.prekeyPool(with: bob.feedID)?.held == 0)
    }

    /// Both start a session before either hears from the other; delivered in either order, the
    /// side with the lower feed_id keeps its session, the other adopts it, nothing is lost.
    @Test(arguments: [false, true])
    func simultaneousFirstMessagesConvergeOnOneSession(bobHearsFirst: Bool) async throws {
        let (alice, bob) = try await Self.pair()
        try await alice.direct.send("Alice starts", to: bob.feedID)
        try await bob.direct.send("Bob starts", to: alice.feedID)
        if bobHearsFirst {
            try await Self.deliver(alice, to: bob)
            try await Self.deliver(bob, to: alice)
        } else {
            try await Self.deliver(bob, to: alice)
            try await Self.deliver(alice, to: bob)
        }
        #expect(Self.texts(try await alice.direct.conversation(with: bob.feedID)).sorted() == ["Alice starts", "Bob starts"])
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)).sorted() == ["Alice starts", "Bob starts"])
        for round in 0..<3 {
            try await alice.direct.send("a\(round)", to: bob.feedID)
            try await Self.deliver(alice, to: bob)
            try await bob.direct.send("b\(round)", to: alice.feedID)
            try await Self.deliver(bob, to: alice)
        }
        #expect(Self.texts(try await alice.direct.conversation(with: bob.feedID)).suffix(6) == ["a0", "b0", "a1", "b1", "a2", "b2"])
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)).suffix(6) == ["a0", "b0", "a1", "b1", "a2", "b2"])
        let failures = try await alice.direct.failures().map(\.reason) + bob.direct.failures().map(\.reason)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aForgedCiphertextFailsAloneAndLeavesTheSessionIntact() async throws {
        let (alice, bob) = try await Self.pair()
        try await alice.direct.send("first", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        // Alice's client writes a broken direct message (validly signed, garbage ciphertext).
        let head = try #require(try alice.store.head(of: alice.feedID))
        let unsigned = UnsignedEnvelope(
            sequence: head.sequence + 1, timestamp: ContactsAccountTests.now, previous: head.messageID,
            type: "post", audience: .direct(bob.feedID), content: [0x01] + [UInt8](repeating: 0x42, count: 80)
        )
        let forged = try Envelope.sign(unsigned, with: alice.identity)
        _ = try alice.store.ingest([forged.canonicalBytes])
        try await alice.direct.send("after the broken one", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.direct.failures().map(\.messageID) == [forged.messageID])
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == ["first", "after the broken one"])
        #expect(try await bob.direct.failures().count == 1)
    }

    @Test func messagesFromSomeoneNotYetAContactWaitForTheirCard() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let bob = try ContactsAccountTests.account(0xB0)
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await alice.direct.send("before you scanned me", to: bob.feedID)
        _ = try await bob.feed.importVerified(lines: try await alice.feed.export(), identityKey: alice.identity.publicKeys.identityKey)
        #expect(try await bob.direct.process().waiting >= 1)
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == ["before you scanned me"])
    }

    @Test func sessionsAndDirectTextNeverReachSQLiteInTheClear() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-direct-\(UUID().uuidString)")
        let aliceHome = AccountHome(directory: directory.appendingPathComponent("a"))
        let bobHome = AccountHome(directory: directory.appendingPathComponent("b"))
        let alice = try await Account.create(home: aliceHome, scrypt: .testing, passphrase: { "p" })
        let bob = try await Account.create(home: bobHome, scrypt: .testing, passphrase: { "p" })
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        let secret = "the direct secret is 4711"
        try await alice.direct.send(secret, to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == [secret])
        for home in [aliceHome, bobHome] {
            for file in try FileManager.default.contentsOfDirectory(at: home.directory, includingPropertiesForKeys: nil)
            where file.lastPathComponent.hasPrefix("kith.sqlite") {
                let data = try Data(contentsOf: file)
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(file.path)")
            }
        }
        // Sessions survive reopening (sealed state round trip).
        let reopened = try await Account.open(home: bobHome, passphrase: { "p" })
        try await reopened.direct.send("reply after reopening", to: alice.feedID)
        try await Self.deliver(reopened, to: alice)
        #expect(Self.texts(try await alice.direct.conversation(with: bob.feedID)).last == "reply after reopening")
    }

    @Test func attachmentsTravelInDirectMessages() async throws {
        let (alice, bob) = try await Self.pair()
        let photo = [UInt8]("pretend this is a photo".utf8)
        let envelope = try await alice.publishing.post("look", audience: .direct(bob.feedID), attachments: [photo])
        try await Self.deliver(alice, to: bob)
        for blob in try await alice.publishing.exportBlobs() { try await bob.publishing.importBlob(blob) }
        #expect(try await bob.publishing.attachment(of: envelope.messageID, index: 0) == photo)
    }

    @Test func prekeyBatchContentIsBounded() async throws {
        #expect(throws: FeedError.self) {
            try Content.parse(Array(#"{"prekeys":"AAAA","type":"prekey_batch"}"#.utf8), envelopeType: "prekey_batch")
        }
        let tooMany = Base64URL.encode([UInt8](repeating: 0, count: FeedLimits.maxPrekeyBatchBytes + 36))
        #expect(throws: FeedError.self) {
            try Content.parse(Array(#"{"prekeys":"\#(tooMany)","type":"prekey_batch"}"#.utf8), envelopeType: "prekey_batch")
        }
        let ok = Base64URL.encode([UInt8](repeating: 1, count: 3 + 36))
        #expect(try Content.parse(Array(#"{"prekeys":"\#(ok)","type":"prekey_batch"}"#.utf8), envelopeType: "prekey_batch").type == "prekey_batch")
    }

    /// A crash after a message was decrypted and its session advanced, but before the
    /// transaction committed, loses nothing and reuses no key: the next pass decrypts it again.
    @Test func aCrashBeforeTheCommitLosesNothing() async throws {
        let (alice, bob) = try await Self.pair()
        let sent = try await alice.direct.send("survives a crash", to: bob.feedID)
        _ = try bob.store.ingest(try await alice.feed.export())  // stored, not yet decrypted
        let envelope = try Envelope.parseV1(sent.canonicalBytes)
        let record = try await bob.contacts.resolve("Alice")
        struct Crash: Error {}
        #expect(throws: StoreError.self) {
            try bob.store.withDirectState { access in
                let plaintext = try Account.openDirect(envelope, from: try bob.peerIdentity(record), local: try bob.ratchetKeys(), access: access, now: 0)
                #expect(!plaintext.isEmpty)
                throw Crash()
            }
        }
        #expect(try bob.store.message(sent.messageID)?.content == nil)
        let report = try await bob.direct.process()
        #expect(report.opened.contains(sent.messageID))
        #expect(Self.texts(try await bob.direct.conversation(with: alice.feedID)) == ["survives a crash"])
    }
}
