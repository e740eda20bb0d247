import Crypto
import KithIdentity
import KithMLS
import Testing

@testable import KithGroups

/// A committer that lost its group state is readmitted by the one member its signed warrant names
/// (docs/CONTINUITY.md section 8, "When the committer was the one restored"); every other commit by a non-committer,
/// and every bent or replayed warrant, is refused by every member.
@Suite struct CommitterReadmissionTests {
    static let now = GroupMembershipTests.now

    /// A feed with its private identity key (the warrant is signed with it).
    struct Signer {
        let privateKey = Curve25519.Signing.PrivateKey()
        var key: Curve25519.Signing.PublicKey { privateKey.publicKey }
        var feed: FeedID { FeedID(identityKey: key) }

        func keyPackage() throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
            try GroupKeyPackage.generate(for: feed, identityKey: key, now: CommitterReadmissionTests.now())
        }
    }

    /// Alice (committer), Bob and Carol at epoch 1, with Alice's signer.
    struct Group {
        let aliceSigner = Signer()
        var alice: GroupMembership
        var bob: GroupMembership
        var carol: GroupMembership

        init() throws {
            let (pb, pc) = (Signer(), Signer())
            alice = try GroupMembership.create(id: .random(), owner: aliceSigner.feed, identityKey: aliceSigner.key, now: CommitterReadmissionTests.now)
            let bobKP = try pb.keyPackage()
            let carolKP = try pc.keyPackage()
            let welcome = try #require(try alice.commit(adding: [bobKP.keyPackage, carolKP.keyPackage]).welcome)
            bob = try GroupMembership.join(
                welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: pb.feed, author: aliceSigner.feed,
                now: CommitterReadmissionTests.now)
            carol = try GroupMembership.join(
                welcome: welcome, keyPackage: carolKP.keyPackage, secrets: carolKP.secrets, own: pc.feed, author: aliceSigner.feed,
                now: CommitterReadmissionTests.now)
        }

        /// Alice's new KeyPackage (her state was lost) and her warrant naming `proxy`.
        func warrant(
            proxy: FeedID, issuedAt: UInt64 = 1_800_000_100, signer: Signer? = nil
        ) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets, warrant: CommitterReadmission) {
            let made = try aliceSigner.keyPackage()
            let warrant = try CommitterReadmission.sign(
                groupID: alice.id, committer: aliceSigner.feed, proxy: proxy, keyPackageReference: try GroupKeyPackage.reference(made.keyPackage),
                issuedAt: issuedAt, identityKey: (signer ?? aliceSigner).privateKey)
            return (made.keyPackage, made.secrets, warrant)
        }
    }

    static func wire(_ handshake: GroupHandshake, _ group: GroupID) throws -> GroupWireMessage {
        try GroupWireMessage(handshake.message.tlsEncoded, group: group)
    }

    /// A commit `member` makes of any proposals, bypassing the proxy's own checks (what a modified client sends).
    static func rawCommit(_ member: inout GroupMembership, _ proposals: [Proposal]) throws -> GroupWireMessage {
        let pending = try member.state.commit(proposals: proposals, includePending: false, includePath: true, wireFormat: .privateMessage)
        return try GroupWireMessage(pending.message.tlsEncoded, group: member.id)
    }

    @Test func theNamedProxyReadmitsTheCommitterWhoKeepsItsRole() throws {
        var group = try Group()
        let alice = group.aliceSigner.feed
        let made = try group.warrant(proxy: group.bob.ownFeed)
        let handshake = try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant)
        #expect(handshake.joiners == [alice])
        let change = try group.carol.receive(try Self.wire(handshake, group.bob.id), from: group.bob.ownFeed)
        guard case .newEpoch(let epoch) = change else { Issue.record("\(change)"); return }
        #expect(epoch.added == [] && epoch.removed == [] && group.carol.epoch == group.bob.epoch)
        #expect(try group.carol.policy.committer == alice && group.carol.members.filter { $0.feed == alice }.count == 1)

        // The restored Alice joins from the proxy's Welcome and is the committer again.
        let welcome = try #require(handshake.welcome)
        var restored = try GroupMembership.join(
            welcome: welcome, keyPackage: made.keyPackage, secrets: made.secrets, own: alice, author: group.bob.ownFeed, now: Self.now)
        #expect(restored.isCommitter && restored.epoch == group.bob.epoch)
        let next = try restored.commit(removing: [group.carol.ownFeed])
        _ = try group.bob.receive(try Self.wire(next, restored.id), from: alice)
        #expect(group.bob.memberFeeds == [alice, group.bob.ownFeed])
    }

    @Test func aWelcomeFromAMemberTheWarrantDoesNotNameIsRefused() throws {
        var group = try Group()
        let made = try group.warrant(proxy: group.bob.ownFeed)
        let welcome = try #require(try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant).welcome)
        #expect(throws: GroupError.notCommitter(committer: group.aliceSigner.feed)) {
            try GroupMembership.join(
                welcome: welcome, keyPackage: made.keyPackage, secrets: made.secrets, own: group.aliceSigner.feed, author: group.carol.ownFeed,
                now: Self.now)
        }
    }

    @Test func onlyTheNamedProxyMayUseAWarrant() throws {
        var group = try Group()
        let made = try group.warrant(proxy: group.bob.ownFeed)
        #expect(throws: GroupError.committerReadmission("the warrant names another member as proxy")) {
            try group.carol.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant)
        }
        // Carol sends the very commit the warrant allows Bob: Bob refuses it.
        let proposals = try GroupMembership.committerReadmissionProposals(
            made.warrant, keyPackage: made.keyPackage, policy: group.carol.policy, state: group.carol.state)
        let forged = try Self.rawCommit(&group.carol, proposals)
        let epoch = group.bob.epoch
        #expect(throws: GroupError.committerReadmission("the warrant names another member as proxy")) {
            try group.bob.receive(forged, from: group.carol.ownFeed)
        }
        #expect(group.bob.epoch == epoch)
    }

    @Test func aWarrantNotSignedByTheCommittersIdentityKeyIsRefused() throws {
        var group = try Group()
        let mallory = Signer()
        // Signed by another key: `sign` itself refuses a key that is not the committer's...
        #expect(throws: GroupError.self) { try group.warrant(proxy: group.bob.ownFeed, signer: mallory) }
        // ...and a warrant whose signature bytes were swapped fails every member's check.
        let made = try group.warrant(proxy: group.bob.ownFeed)
        var bytes = made.warrant.encoded
        bytes[bytes.count - 1] ^= 0x01
        let bent = try CommitterReadmission(decoding: bytes)
        #expect(throws: GroupError.committerReadmission("the warrant is not signed by the identity key the committer's leaf carries")) {
            try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: bent)
        }
    }

    @Test func aCommitThatDoesMoreThanReadmitIsRefused() throws {
        var group = try Group()
        let made = try group.warrant(proxy: group.bob.ownFeed)
        var proposals = try GroupMembership.committerReadmissionProposals(
            made.warrant, keyPackage: made.keyPackage, policy: group.bob.policy, state: group.bob.state)
        let carolLeaf = try #require(group.bob.members.first { $0.feed == group.carol.ownFeed }?.leaf)
        proposals.insert(.remove(LeafIndex(carolLeaf)), at: 0)
        var observer = group.alice
        let forged = try Self.rawCommit(&group.bob, proposals)
        #expect(throws: GroupError.committerReadmission("the commit does more than readmit the committer")) {
            try observer.receive(forged, from: group.bob.ownFeed)
        }
        // Another KeyPackage of Alice's than the warrant names: refused too.
        let other = try group.aliceSigner.keyPackage()
        var swapped = try GroupMembership.committerReadmissionProposals(
            made.warrant, keyPackage: made.keyPackage, policy: group.bob.policy, state: group.bob.state)
        swapped = swapped.map { if case .add = $0 { .add(other.keyPackage) } else { $0 } }
        var bob = group.bob
        let forgedAdd = try Self.rawCommit(&bob, swapped)
        #expect(throws: GroupError.committerReadmission("the KeyPackage is not the one the warrant names")) {
            try group.carol.receive(forgedAdd, from: group.bob.ownFeed)
        }
    }

    @Test func aWarrantCountsOnceEvenAfterTheRoleMovesOnAndBack() throws {
        var group = try Group()
        let made = try group.warrant(proxy: group.bob.ownFeed)
        let first = try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant)
        _ = try group.carol.receive(try Self.wire(first, group.bob.id), from: group.bob.ownFeed)
        // The same warrant again (a replay), or an older one, is refused by the proxy and by every member.
        #expect(throws: GroupError.committerReadmission("the warrant is not newer than the last one used (a replay, or an older request)")) {
            try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant)
        }
        let older = try group.warrant(proxy: group.bob.ownFeed, issuedAt: 1_800_000_000)
        let olderProposals = try GroupMembership.committerReadmissionProposals(
            made.warrant, keyPackage: made.keyPackage, policy: GroupPolicy(committer: group.aliceSigner.feed), state: group.bob.state)
        var bob = group.bob
        let replay = try Self.rawCommit(&bob, olderProposals)
        var carol = group.carol
        #expect(throws: GroupError.self) { try carol.receive(replay, from: group.bob.ownFeed) }
        #expect(throws: GroupError.self) { try group.bob.readmitCommitter(keyPackage: older.keyPackage, warrant: older.warrant) }

        // The readmitted Alice hands the role to Carol and Carol back to Alice: the policy still remembers the warrant.
        var alice = try GroupMembership.join(
            welcome: try #require(first.welcome), keyPackage: made.keyPackage, secrets: made.secrets, own: group.aliceSigner.feed,
            author: group.bob.ownFeed, now: Self.now)
        let handOver = try alice.handOver(to: group.carol.ownFeed)
        _ = try group.carol.receive(try Self.wire(handOver, alice.id), from: alice.ownFeed)
        _ = try group.bob.receive(try Self.wire(handOver, alice.id), from: alice.ownFeed)
        let back = try group.carol.handOver(to: alice.ownFeed)
        _ = try alice.receive(try Self.wire(back, alice.id), from: group.carol.ownFeed)
        _ = try group.bob.receive(try Self.wire(back, alice.id), from: group.carol.ownFeed)
        #expect(try group.bob.policy.committer == alice.ownFeed)
        #expect(try group.bob.policy.lastReadmission(of: alice.ownFeed) == made.warrant)
        #expect(throws: GroupError.self) { try group.bob.readmitCommitter(keyPackage: made.keyPackage, warrant: made.warrant) }
    }

    @Test func aNonCommittersWarrantIsRefused() throws {
        let group = try Group()
        // Carol signs a "warrant" for herself as if she were the committer: Bob refuses to commit it.
        let made = try group.warrant(proxy: group.bob.ownFeed)
        var policy = try group.bob.policy
        policy.committer = group.carol.ownFeed
        #expect(throws: GroupError.committerReadmission("the warrant's signer is not the group's committer")) {
            try GroupMembership.committerReadmissionProposals(made.warrant, keyPackage: made.keyPackage, policy: policy, state: group.bob.state)
        }
    }

    @Test func thePolicyRoundTripsWithReadmissionsAndReadsVersionOne() throws {
        let group = try Group()
        let made = try group.warrant(proxy: group.bob.ownFeed)
        let plain = GroupPolicy(committer: group.aliceSigner.feed)
        #expect(plain.groupContextExtension.data.first == 1)
        let recorded = plain.recording(made.warrant)
        #expect(recorded.groupContextExtension.data.first == 2)
        #expect(try GroupPolicy(extensions: [recorded.groupContextExtension]) == recorded)
        #expect(try GroupPolicy(extensions: [plain.groupContextExtension]) == plain)
        // A version 2 policy with an empty list, trailing bytes or a truncated warrant is refused.
        var empty = TLSWriter()
        empty.writeUInt8(2)
        empty.writeOpaque(group.aliceSigner.feed.rawBytes)
        empty.writeVector { _ in }
        var trailing = recorded.groupContextExtension.data
        trailing.append(0)
        let truncated = Array(recorded.groupContextExtension.data.dropLast())
        for data in [empty.bytes, trailing, truncated] {
            #expect(throws: GroupError.missingPolicy) { try GroupPolicy(extensions: [Extension(type: GroupPolicy.extensionType, data: data)]) }
        }
        #expect(try CommitterReadmission(decoding: made.warrant.encoded) == made.warrant)
        #expect(throws: GroupError.self) { try CommitterReadmission(decoding: made.warrant.encoded + [0]) }
        #expect(throws: GroupError.self) { try CommitterReadmission(decoding: Array(repeating: 0, count: 600)) }
    }
}
