import Kith
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

/// `kith demo`: a guided tour of what Kith does, on throwaway identities.
///
/// Each step prints what happened in plain words. Later capabilities add their own steps.
public enum Demo {
    /// What the demo established, for tests.
    public struct Summary: Sendable {
        /// Messages Alice wrote.
        public var authored = 0
        /// Entries Bob stored from Alice's export.
        public var bobStored = 0
        /// Whether the tampered copy was rejected.
        public var tamperDetected = false
        /// Whether the fork was detected.
        public var forkDetected = false
        /// Entries that arrived newest-first and were linked once the gap filled.
        public var linkedFromPending = 0
        /// Whether Bob read Alice's contacts post after importing her feed.
        public var contactReadPost = false
        /// Whether Carol, not a contact, failed to read it.
        public var strangerLockedOut = false
        /// Whether Bob read Alice's direct messages in order although they arrived newest first.
        public var directReadInOrder = false
        /// Whether Alice read Bob's direct reply.
        public var directReplyRead = false
        /// Whether Bob and Carol joined Alice's group.
        public var groupJoined = false
        /// Whether every member read the group's three messages.
        public var groupMessagesRead = false
        /// Whether the removed member could not read what followed.
        public var removedLockedOut = false
        /// Whether no readable group message was left anywhere after the explosion.
        public var groupExploded = false
        /// Step 10: Dana joined with a single-use invite.
        public var inviteJoined = false
        /// Step 10: Erin's second use of it was refused.
        public var secondUseRefused = false
        /// Step 10 with a server: Dana joined without ever becoming Alice's contact (nor Alice hers).
        public var inviteJoinerWasStranger = false
        /// Step 10 with a server: Dana, a stranger to Alice, read Alice's group message after joining.
        public var strangerReadGroup = false
        /// Step 10: after a revocation an old invite failed and a new one worked.
        public var revokedThenFreshWorked = false
        /// Step 10b: a stranger joined Alice's persona conversation under a persona of his own.
        public var personaJoined = false
        /// Step 10b: neither side's group or invite named the other's main feed.
        public var personaMainFeedsHidden = false
        /// Step 10b: after the explosion and the departure no persona and no persona file was left.
        public var personaGone = false
    }

    /// Runs the demo in `directory` (two homes, `alice/` and `bob/`), narrating through `say`.
    public static func run(in directory: URL, serverURL: String? = nil, say: (String) -> Void) async throws(KithError) -> Summary {
        var summary = Summary()
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let aliceHome = AccountHome(directory: directory.appendingPathComponent("alice"))
        let bobHome = AccountHome(directory: directory.appendingPathComponent("bob"))
        for home in [aliceHome, bobHome, AccountHome(directory: directory.appendingPathComponent("sam"))] where FileManager.default.fileExists(atPath: home.vaultURL.path) {
            throw .vault(.vaultExists(path: home.vaultURL.path))
        }

        say("== 1. Two people create identities ==")
        let alice = try await Account.create(home: aliceHome, passphrase: passphrase)
        let bob = try await Account.create(home: bobHome, passphrase: passphrase)
        say("Alice's feed id: \(alice.feedID)")
        say("Bob's feed id:   \(bob.feedID)")
        say("Each seed is sealed with scrypt + ChaCha20-Poly1305 in identity.vault; the SQLite files hold no keys.")

        say("")
        say("== 2. Alice writes in her feed ==")
        let texts = ["Met Bob at the meetup today.", "Grüße aus 東京 🌏 — non-ASCII text is signed byte-exactly.", "Note to self: buy film.", "Kith chains every message to the previous one."]
        try await alice.publishing.publish(.profileUpdate(ProfileUpdate(displayName: "Alice")), audience: .selfOnly)
        for text in texts { try await alice.publishing.post(text, audience: .selfOnly) }
        summary.authored = texts.count + 1
        for message in try await alice.feed.timeline().reversed() {
            if case .post(let post)? = message.content { say("  #\(message.sequence) \(post.body)") }
        }
        say("Every message is canonical JSON, signed with Ed25519 and linked by SHA-256 to the one before.")
        say("These are 'self' messages, encrypted under Alice's journal key: only Alice can read them.")

        say("")
        say("== 3. Alice exports her feed; Bob imports it ==")
        let backup = try await alice.feed.export(includeSelfContent: true)
        let report = try await bob.feed.importVerified(lines: backup, identityKey: alice.identity.publicKeys.identityKey)
        summary.bobStored = report.outcomes.filter { if case .stored = $0 { return true } else { return false } }.count
        say("Bob verified and stored \(summary.bobStored) of \(backup.count) envelopes.")
        let readable = try await bob.feed.timeline(feed: alice.feedID).filter { $0.content != nil }.count
        say("Bob can read \(readable) of them: he holds ciphertext he cannot decrypt and can relay it to others.")
        let peerForm = try await alice.feed.export()
        say("What Alice would hand a peer instead: \(peerForm.count) lines, self messages as stubs, e.g.")
        say("  " + String(decoding: peerForm[1], as: UTF8.self))

        say("")
        say("== 4. Anyone can verify a feed with just the author's key ==")
        let verifier = ChainVerifier(identityKey: alice.identity.publicKeys.identityKey)
        let clean = verifier.verify(lines: backup)
        say("Verifying the export: \(clean.isValid ? "OK" : "INVALID"), \(clean.accepted) entries.")
        var tampered = backup
        if let index = tampered[2].firstIndex(of: UInt8(ascii: "\"")) {
            tampered[2].insert(UInt8(ascii: " "), at: index)
        }
        let bad = verifier.verify(lines: tampered)
        summary.tamperDetected = !bad.isValid
        say("Verifying a copy with one byte added to line 3: \(bad.isValid ? "OK" : "INVALID")")
        for rejection in bad.rejections { say("  line \(rejection.line): \(rejection.code): \(rejection.message)") }

        say("")
        say("== 5. Sync sends newest first: gaps are held, then linked ==")
        let carol = try Account.inMemory()
        let newestFirst = Array(backup.reversed())
        let first = try await carol.feed.importVerified(lines: Array(newestFirst.prefix(3)), identityKey: alice.identity.publicKeys.identityKey)
        let pending = first.outcomes.filter { if case .pending = $0 { return true } else { return false } }.count
        say("Carol received the 3 newest messages first: \(pending) verified but held pending (the chain below them is missing).")
        let second = try await carol.feed.importVerified(lines: Array(newestFirst.dropFirst(3)), identityKey: alice.identity.publicKeys.identityKey)
        summary.linkedFromPending = second.promoted.count
        say("Then the older ones arrived: the gap filled and \(second.promoted.count) held messages were linked into the chain.")

        say("")
        say("== 6. Forks are detected, never overwritten ==")
        let clone = try Account.inMemory(seed: try aliceSeedForDemo(aliceHome, passphrase))
        _ = try await clone.feed.importVerified(lines: Array(backup.prefix(2)), identityKey: alice.identity.publicKeys.identityKey)
        let forked = try await clone.publishing.post("A different message #2 from a restored old backup", audience: .selfOnly)
        let forkReport = try await bob.feed.importVerified(lines: [forked.canonicalBytes], identityKey: alice.identity.publicKeys.identityKey)
        if case .fork? = forkReport.outcomes.first { summary.forkDetected = true }
        say("Alice restored an old backup on a second device and signed another message #\(forked.sequence).")
        say("Bob's store: \(summary.forkDetected ? "fork detected, evidence recorded, his copy of #\(forked.sequence) kept" : "no fork detected")")

        say("")
        say("== 7. Alice and Bob meet and exchange contact cards ==")
        try await contactsStep(alice: alice, bob: bob, summary: &summary, say: say)

        say("")
        say("== 8. A private conversation: direct messages ==")
        try await directStep(alice: alice, bob: bob, summary: &summary, say: say)

        say("")
        say("== 9. A group conversation on MLS, through the feeds ==")
        try await groupStep(alice: alice, bob: bob, summary: &summary, say: say)

        say("")
        if let serverURL {
            say("== 10. Invites: a signed link, joiners who never met the creator, single use, revocation ==")
            do {
                try await strangerInviteStep(alice: alice, serverURL: serverURL, summary: &summary, say: say)
            } catch let error as KithError {
                throw error
            } catch {
                throw .input(.invalid("the invite step's relay failed: \(error)"))
            }
        } else {
            say("== 10. Invites: a signed link, a join request, single use, revocation ==")
            try await inviteStep(alice: alice, summary: &summary, say: say)
        }

        say("")
        say("== 10b. Personas: a conversation under an identity of its own ==")
        do {
            let samHome = AccountHome(directory: directory.appendingPathComponent("sam"))
            try await personaStep(alice: alice, samHome: samHome, passphrase: passphrase, serverURL: serverURL, summary: &summary, say: say)
        } catch let error as KithError {
            throw error
        } catch {
            throw .input(.invalid("the persona step failed: \(error)"))
        }
        return summary
    }

    private static func contactsStep(alice: Account, bob: Account, summary: inout Summary, say: (String) -> Void) async throws(KithError) {
        let aliceCard = try await alice.contacts.card(displayName: "Alice")
        let bobCard = try await bob.contacts.card(displayName: "Bob")
        say("Alice's card: \(aliceCard.encoded.count) bytes, signed by her identity key; as text (\(aliceCard.text.count) characters):")
        say("  " + aliceCard.text.prefix(64) + "…")
        // What `kith card --qr` draws: the compact card (keys, name, a commitment to the full card), which fits a
        // small QR code; the full card it commits to follows over the first link.
        let compact = try await alice.contacts.compactCard(for: aliceCard)
        say("Bob scans the QR code on Alice's screen: her compact card (\(compact.encoded.count) bytes; the full card follows over the first link):")
        if let code = try? QRCode.render(compact.text, level: .medium) { say(code) }
        try await bob.contacts.add(cardText: aliceCard.text, name: "Alice")
        try await alice.contacts.add(cardText: bobCard.text, name: "Bob")
        say("Both verified the other's card (signature, feed id = SHA-256(identity key), age) and derived a shared contacts key.")
        let post = try await alice.publishing.post("Great to meet you, Bob! This post is for my contacts only.", audience: .contacts)
        say("Alice posts #\(post.sequence) to her contacts: one ciphertext, one 40-byte blinded slot per recipient.")
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        if case .post(let read)? = try await bob.feed.timeline(feed: alice.feedID).first(where: { $0.messageID == post.messageID })?.content {
            summary.contactReadPost = true
            say("Bob imports Alice's feed and reads: \"\(read.body)\"")
        } else {
            say("Bob could not read the post (unexpected)")
        }
        let carol = try Account.inMemory()
        _ = try await carol.feed.importVerified(lines: try await alice.feed.export(includeSelfContent: true), identityKey: alice.identity.publicKeys.identityKey)
        let carolCopy = try await carol.feed.timeline(feed: alice.feedID).first { $0.messageID == post.messageID }
        summary.strangerLockedOut = carolCopy != nil && carolCopy?.content == nil
        say("Carol, not Alice's contact, imports Alice's full export: she verifies and stores the post but \(summary.strangerLockedOut ? "cannot read it" : "CAN read it (unexpected)").")
    }

    private static func aliceSeedForDemo(_ home: AccountHome, _ passphrase: @escaping @Sendable () throws(IdentityError) -> String) throws(KithError) -> Seed {
        do { return try FileKeyVault(url: home.vaultURL, passphrase: passphrase).loadSeed() } catch { throw .identity(error) }
    }
}
