import Foundation
import Kith
import KithContinuity
import KithFeed
import KithIdentity
import KithSync

extension Demo {
    /// What the "Bob loses his phone" step did.
    public struct RescueSummary: Sendable {
        /// Whether both guardians held a share of Bob's set after syncing with him.
        public var sharesHeld = false
        /// Whether Bob's old home was gone before the recovery started.
        public var oldHomeGone = false
        /// Whether the safety code each guardian saw matched the new phone's.
        public var safetyCodesMatched = false
        /// Whether the releases rebuilt Bob's feed id, with the backup key his set carried.
        public var rebuilt = false
        /// Whether the new home was restored from the backup.
        public var restored = false
        /// Whether Alice saw a verified `key_rotation` with reason `device_migration`.
        public var verifiedMoveSeen = false
        /// Whether Alice, knowing only Bob's old key, completed a sync session with his new device.
        public var syncedWithMovedDevice = false
        /// Whether Alice read Bob's next post, signed with the new key.
        public var nextPostRead = false
    }

    /// Step 15 of the tour: Bob made Alice and Dana his guardians (2 of 2) and keeps a backup; his phone is lost
    /// (his home is deleted); a new phone asks both guardians, who compare the safety code and release; Bob rebuilds
    /// his identity, restores the backup with the key his set carried, and publishes a verified `device_migration`
    /// rotation; Alice sees the verified move and reads Bob's next post. The rebuilt home is written where the old
    /// one was, so later commands on the demo homes keep working.
    public static func runRescue(in directory: URL, say: @Sendable (String) -> Void) async throws -> RescueSummary {
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let bobHome = AccountHome(directory: directory.appendingPathComponent("bob"))
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: passphrase)
        let bob = try await Account.open(home: bobHome, passphrase: passphrase)
        var summary = RescueSummary()

        say("")
        say("== 15. Bob loses his phone: recovery through two friends, a backup, a verified move ==")
        let dana = try Account.inMemory()
        try await dana.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await bob.contacts.add(cardText: try await dana.contacts.card(displayName: "Dana").text, name: "Dana")
        let backupKey = RecoveryKey.generate()
        let set = try await bob.recovery.setup(threshold: 2, guardians: [alice.feedID, dana.feedID], backupKey: backupKey)
        for guardian in [alice, dana] { _ = try await guardian.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID) }
        let aliceHolds = try await alice.recovery.held().contains { $0.owner == bob.feedID && $0.setID == set.setID }
        let danaHolds = try await dana.recovery.held().contains { $0.owner == bob.feedID && $0.setID == set.setID }
        summary.sharesHeld = aliceHolds && danaHolds
        say("Bob makes Alice and Dana his guardians (any 2 of 2): his seed and backup key are split by Shamir's scheme;")
        say("each share travels in a direct message. After a sync Alice \(aliceHolds ? "holds" : "does NOT hold") one, Dana \(danaHolds ? "holds" : "does NOT hold") one; neither learns anything alone.")
        let backupFile = directory.appendingPathComponent("bob-laptop.kithbackup")
        try? FileManager.default.removeItem(at: backupFile)
        let backup = try await bob.backup(to: backupFile, secret: .recoveryKey(backupKey))
        say("Bob's laptop keeps a sealed backup (\(backup.fileBytes) bytes); its key is only in the guardians' shares now.")

        try FileManager.default.removeItem(at: bobHome.directory)
        summary.oldHomeGone = !FileManager.default.fileExists(atPath: bobHome.directory.path)
        say("Bob's phone is gone: his home, seed and keys with it.")

        let newPhone = try Account.inMemory()
        let request = try await newPhone.recovery.makeRequest(for: bob.feedID)
        say("On a new phone Bob asks for recovery of \(bob.feedID.string.prefix(12))…; it shows the safety code \(request.safetyCode).")
        var releases: [RecoveryRelease] = []
        var matched = true
        for (guardian, name) in [(alice, "Alice"), (dana, "Dana")] {
            // The guardian's device reads the request text and shows its own code; they compare it aloud.
            let seen = try RecoveryRequest(text: request.text)
            matched = matched && seen.safetyCode == request.safetyCode
            releases.append(try await guardian.recovery.release(for: bob.feedID, request: seen))
            say("  \(name) recognises Bob, her screen shows \(seen.safetyCode) too: she releases her share, sealed to the new phone.")
        }
        summary.safetyCodesMatched = matched
        let recovered = try await newPhone.recovery.rebuild(from: releases)
        summary.rebuilt = recovered.identity.feedID == bob.feedID && recovered.backupKey == backupKey
        say("The two releases rebuild Bob's seed (digest checked): feed id \(recovered.identity.feedID == bob.feedID ? "matches" : "DIFFERS"), backup key \(recovered.backupKey == nil ? "missing" : "recovered").")

        let move = try await Account.Recovery.move(recovered, into: bobHome, backup: backupFile, passphrase: passphrase)
        summary.restored = move.restore != nil
        say("Bob's new home is restored from the laptop's backup (own feed up to #\(move.restore?.ownHead ?? 0)) and publishes a key rotation,")
        say("reason device_migration, signed by the old identity key; his guardians hold the old keys, so he will run `kith recovery setup` again.")

        // A real sync session over the simulated radio: Alice still knows only Bob's old key, and the moved device
        // answers with it during the rotation's grace (docs/sync.md, "After a key rotation").
        summary.syncedWithMovedDevice = await Self.agentSession(alice, move.account)
        let rotation = try await alice.rotation.records(feed: bob.feedID).last
        summary.verifiedMoveSeen = rotation?.verified == true && rotation?.reason == KeyRotationReason.deviceMigration.rawValue
            && rotation?.newIdentityKey == move.account.identity.publicKeys.identityKeyString
        say("Alice syncs with Bob's new phone \(summary.syncedWithMovedDevice ? "directly (it answers with the old key she knows, for the rotation's grace)" : "(the session FAILED)"):")
        say("she sees the move \(summary.verifiedMoveSeen ? "as verified (the old key signed the new one)" : "NOT verified").")
        let post = try await move.account.publishing.post("New phone, same me. Thanks, Alice and Dana!", audience: .contacts)
        _ = await Self.agentSession(move.account, alice)
        if case .post(let read)? = try await alice.feed.timeline(feed: bob.feedID).first(where: { $0.messageID == post.messageID })?.content {
            summary.nextPostRead = true
            say("Alice reads Bob's next post, signed with his new key: \"\(read.body)\"")
        } else {
            say("Alice could not read Bob's next post (unexpected)")
        }
        return summary
    }

    /// One sync session over the simulated radio between two accounts' `SyncAgent`s, `initiator` dialing with IK to
    /// the key it knows; true when both sides completed.
    static func agentSession(_ initiator: Account, _ responder: Account) async -> Bool {
        let initiating = SyncAgent(account: initiator)
        let responding = SyncAgent(account: responder)
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration())
        async let responded: SyncSessionReport? = {
            guard let link = try? await responding.accept(over: peripheral) else { return nil }
            return await responding.run(link: link, clock: peripheral)
        }()
        let contact = try? await initiator.contacts.all().first { $0.feedID == responder.feedID }
        var initiated: SyncSessionReport?
        if let link = try? await initiating.initiate(over: central, contact: contact) {
            initiated = await initiating.run(link: link, clock: central)
        } else {
            await central.close()
        }
        let other = await responded
        return initiated?.completed == true && other?.completed == true
    }
}
