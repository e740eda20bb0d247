import Foundation
import KithAccountFixtures
import KithContinuity
import KithIdentity
import Testing
@testable import Kith

/// Moving to a new device in person: `Account.moveSend(to:…)` and `MoveReceiver` (docs/CONTINUITY.md, section 7).
@Suite struct MoveTests {
    @Test func aFullMoveCarriesTheAccountRotatesForContactsAndStopsTheOldHome() async throws {
        let (alice, oldHome, bob) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver, receiving) = try await MoveTestSupport.waitingReceiver()
        let sent = try await alice.moveSend(to: receiver.code)
        let (moved, report) = try await receiving.value

        #expect(sent.confirmation == report.confirmation)
        #expect(sent.newDeviceHead == report.ownHead)
        #expect(moved.feedID == alice.feedID)
        let timeline = MoveTestSupport.texts(try await moved.feed.timeline())
        #expect(timeline.contains("alice before the move"))
        #expect(timeline.contains("a note to self"))
        #expect(timeline.contains("bob's post"), "the followed feed was carried")
        #expect(try await moved.contacts.all().contains { $0.feedID == bob.feedID })
        // The new device posts right away: the rotation it published lifted the restored-head guard.
        try await moved.publishing.post("from the new device", audience: .contacts)

        // Bob syncs and sees the device_migration rotation, verified with the old key.
        _ = try await bob.feed.importFromContact(lines: try await moved.feed.export(), contact: alice.feedID)
        let rotations = try await bob.rotation.records(feed: alice.feedID)
        #expect(rotations.contains { $0.verified && $0.reason == KeyRotationReason.deviceMigration.rawValue })
        #expect(MoveTestSupport.texts(try await bob.feed.timeline(feed: alice.feedID)).contains("from the new device"))

        // The old account object refuses to post.
        let late = await MoveTestSupport.failure { try await alice.publishing.post("late", audience: .contacts) }
        guard case .continuity(.movedAway)? = late else {
            Issue.record("the old account posted after the move: \(String(describing: late))")
            return
        }
        // The old home holds no keys and refuses every later open with the move's facts.
        #expect(!FileManager.default.fileExists(atPath: oldHome.vaultURL.path))
        #expect(!FileManager.default.fileExists(atPath: oldHome.databaseURL.path))
        let refusal = await MoveTestSupport.failure { try await Account.open(home: oldHome, passphrase: { "old" }) }
        guard case .continuity(.movedAway(let feed, _, let confirmation))? = refusal else {
            Issue.record("the old home did not refuse with movedAway: \(String(describing: refusal))")
            return
        }
        #expect(feed == alice.feedID.string)
        #expect(confirmation == sent.confirmation)
        await #expect(throws: KithError.self) { _ = try await Account.create(home: oldHome, scrypt: .testing, passphrase: { "x" }) }
        // The new home reopens with its new passphrase.
        #expect(try await Account.open(home: newHome, passphrase: { "new" }).feedID == alice.feedID)
    }

    @Test func aWrongCodeTransfersNothingAndTheOldHomeKeepsWorking() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver, receiving) = try await MoveTestSupport.waitingReceiver()
        let wrong = try MoveTestSupport.withWrongSecret(receiver.code)
        let senderError = await MoveTestSupport.failure { try await alice.moveSend(to: wrong) }
        #expect(MoveTestSupport.moveError(senderError) == .refusedByPeer("wrong move code"))
        let receiverError = await MoveTestSupport.failure { try await receiving.value }
        #expect(MoveTestSupport.moveError(receiverError) == .wrongCode)
        #expect(MoveTestSupport.isEmpty(newHome))
        // The old device is unchanged: it still opens and posts.
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome))
    }

    @Test func anotherIdentityThanTheExpectedOneIsRefusedAndTheOldHomeKeepsWorking() async throws {
        let (alice, oldHome, bob) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver, receiving) = try await MoveTestSupport.waitingReceiver(expecting: bob.feedID)
        let senderError = await MoveTestSupport.failure { try await alice.moveSend(to: receiver.code) }
        guard case .refusedByPeer? = MoveTestSupport.moveError(senderError) else {
            Issue.record("expected a refusal, got \(String(describing: senderError))")
            return
        }
        let receiverError = await MoveTestSupport.failure { try await receiving.value }
        guard case .continuity(.otherIdentity)? = receiverError else {
            Issue.record("expected otherIdentity, got \(String(describing: receiverError))")
            return
        }
        #expect(MoveTestSupport.isEmpty(newHome))
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome))
    }

    @Test func aCodeNamingAnotherReceiverKeyFailsTheHandshake() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver, receiving) = try await MoveTestSupport.waitingReceiver()
        let code = receiver.code
        let other = try MoveCode(host: code.host, port: code.port, receiverStaticKey: [UInt8](repeating: 9, count: 32), secret: code.secret)
        await #expect(throws: KithError.self) { _ = try await alice.moveSend(to: other) }
        // The failed handshake is no session: the receiver still waits, until it is cancelled.
        await receiver.cancel()
        let error = await MoveTestSupport.failure { try await receiving.value }
        guard case .timedOut? = MoveTestSupport.moveError(error) else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
        #expect(MoveTestSupport.isEmpty(newHome))
        #expect(try await Account.open(home: oldHome, passphrase: { "old" }).feedID == alice.feedID)
    }

    @Test func aSenderGoneMidTransferLeavesTheNewHomeEmpty() async throws {
        let outcome = try await MoveTestSupport.receiverFailure { sender in
            try await sender.send(.begin(totalBytes: 1_000_000))
            try await sender.send(.data([UInt8](repeating: 1, count: 1000)))
            await sender.link.close()
        }
        #expect(outcome.error != nil)
        #expect(outcome.homeIsEmpty)
        #expect(outcome.stagingIsGone)
    }

    @Test func aReceiverGoneMidTransferLeavesTheOldHomeIntact() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (code, links, listener) = try await MoveTestSupport.hostileReceiver()
        let fake = Task {
            for await channel in links {
                guard case .proof = try await channel.receive() else { return }
                try await channel.send(.accepted)
                _ = try await channel.receive()
                _ = try await channel.receive()
                await channel.link.close()
                return
            }
        }
        await #expect(throws: KithError.self) { _ = try await alice.moveSend(to: code) }
        _ = await fake.result
        await listener.close()
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome))
        #expect(!FileManager.default.fileExists(atPath: oldHome.movedMarkerURL.path))
        #expect(!FileManager.default.fileExists(atPath: oldHome.directory.appendingPathComponent("move-outgoing.kithbackup").path))
    }

    @Test func theOldDeviceRefusesToPostWhileItHandsOverAndPostsAgainAfterAFailure() async throws {
        let (alice, _, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (code, links, listener) = try await MoveTestSupport.hostileReceiver()
        let (began, beganSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let fake = Task {
            for await channel in links {
                guard case .proof = try await channel.receive() else { return }
                try await channel.send(.accepted)
                _ = try await channel.receive()
                beganSignal.yield()
                for await _ in release { break }
                await channel.link.close()
                return
            }
        }
        let sending = Task { try await alice.moveSend(to: code) }
        for await _ in began { break }
        let during = await MoveTestSupport.failure { try await alice.publishing.post("during", audience: .contacts) }
        guard case .continuity(.moveInProgress)? = during else {
            Issue.record("posted during the hand-over: \(String(describing: during))")
            return
        }
        await #expect(throws: KithError.self) { _ = try await alice.moveSend(to: code) }
        releaseSignal.yield()
        await #expect(throws: KithError.self) { _ = try await sending.value }
        _ = await fake.result
        await listener.close()
        try await alice.publishing.post("after the failed move", audience: .contacts)
    }

    @Test func aSenderOverrunningItsAnnouncedSizeIsRefusedWithATypedError() async throws {
        let outcome = try await MoveTestSupport.receiverFailure { sender in
            try await sender.send(.begin(totalBytes: 10))
            try await sender.send(.data([UInt8](repeating: 1, count: 11)))
        }
        guard case .oversize? = MoveTestSupport.moveError(outcome.error) else {
            Issue.record("expected oversize, got \(String(describing: outcome.error))")
            return
        }
        #expect(outcome.homeIsEmpty && outcome.stagingIsGone)
    }

    @Test func aSenderSkippingTheProofIsRefused() async throws {
        let outcome = try await MoveTestSupport.receiverFailure(proving: false) { sender in
            try await sender.send(.begin(totalBytes: 10))
        }
        guard case .protocolViolation? = MoveTestSupport.moveError(outcome.error) else {
            Issue.record("expected protocolViolation, got \(String(describing: outcome.error))")
            return
        }
        #expect(outcome.homeIsEmpty && outcome.stagingIsGone)
    }

    @Test func aStreamThatIsNotAValidContainerIsRefusedAndWritesNothing() async throws {
        let junk = [UInt8](repeating: 0xAB, count: 5000)
        let outcome = try await MoveTestSupport.receiverFailure { sender in
            try await sender.send(.begin(totalBytes: UInt64(junk.count)))
            try await sender.send(.data(Array(junk.prefix(3000))))
            try await sender.send(.data(Array(junk.suffix(2000))))
            try await sender.send(.end)
        }
        guard case .continuity(.backup)? = outcome.error else {
            Issue.record("expected a backup error, got \(String(describing: outcome.error))")
            return
        }
        #expect(outcome.homeIsEmpty && outcome.stagingIsGone)
    }

    @Test func aNonEmptyHomeIsRefusedBeforeListening() async throws {
        let home = AccountHome(directory: MoveTestSupport.temporary("full"))
        try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: home.directory.appendingPathComponent("something"))
        await #expect(throws: KithError.self) { _ = try await MoveReceiver.listen(home: home) }
    }
}
