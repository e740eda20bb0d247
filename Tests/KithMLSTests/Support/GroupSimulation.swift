import KithMLS
import KithMLSConformance
import Testing

/// Drives real member states of one group through random epochs (seeded, so a failure replays), checking after every
/// epoch that all members agree and read every application message, and that removed members read nothing sent later.
struct GroupSimulation {
    /// A member that left the group, with its last state.
    struct Removed {
        var name: Int
        /// The first epoch the member is no longer part of.
        var removedAt: UInt64
        var state: GroupState
    }

    /// A KeyPackage waiting to be added, with its private keys.
    struct Candidate {
        var name: Int
        var keyPackage: KeyPackage
        var secrets: KeyPackageSecrets
    }

    static let configuration = GroupConfiguration(clock: { 1_700_000_000 })
    /// How many removed members are probed against every later message (the most recent ones).
    static let removedProbes = 8

    let suite: CipherSuite
    let maxSize: Int
    let seed: UInt64
    var rng: SeededGenerator
    var members: [Int: GroupState] = [:]
    var removed: [Removed] = []
    var nextName = 0
    /// Counters reported at the end of a run.
    var applicationDeliveries = 0
    var removedRejections = 0
    var commits = 0

    /// Creates a group of `size` members with one commit from member 0.
    init(suite: CipherSuite, size: Int, maxSize: Int, seed: UInt64) throws {
        self.suite = suite
        self.maxSize = maxSize
        self.seed = seed
        self.rng = SeededGenerator(seed: seed)
        let creator = try makeCandidate()
        var creatorState = try GroupState(creating: Array("random-\(seed)".utf8), keyPackage: creator.keyPackage, secrets: creator.secrets,
                                          configuration: Self.configuration)
        let joiners = try (1..<size).map { _ in try makeCandidate() }
        let pending = try creatorState.commit(adding: joiners.map(\.keyPackage))
        members[creator.name] = pending.newState
        let welcome = try #require(pending.welcome)
        for joiner in joiners {
            members[joiner.name] = try GroupState(welcome: welcome, keyPackage: joiner.keyPackage, secrets: joiner.secrets,
                                                  configuration: Self.configuration)
        }
        try checkAgreement()
    }

    mutating func makeCandidate() throws -> Candidate {
        defer { nextName += 1 }
        let (keyPackage, secrets) = try KeyPackage.generate(suite: suite, credential: .basic(identity: Array("member-\(nextName)".utf8)),
                                                            signatureKeys: suite.signature.generateKeyPair(),
                                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        return Candidate(name: nextName, keyPackage: keyPackage, secrets: secrets)
    }

    func state(_ name: Int) throws -> GroupState { try #require(members[name], "seed \(seed): no member \(name)") }

    func name(of leaf: LeafIndex) throws -> Int {
        try #require(members.first(where: { $0.value.ownLeaf == leaf })?.key, "seed \(seed): nobody at \(leaf)")
    }

    mutating func randomWireFormat() -> WireFormat { rng.chance(50) ? .publicMessage : .privateMessage }

    /// Delivers a proposal or commit from `sender` to every other member; removed members must reject it.
    mutating func broadcastProposal(_ message: MLSMessage, from sender: Int) throws {
        for name in members.keys.sorted() where name != sender {
            var receiver = try state(name)
            let result = try receiver.handle(message)
            guard case .proposal = result else { Issue.record("seed \(seed): member \(name) got \(result) for a proposal"); return }
            members[name] = receiver
        }
        probeRemoved(with: message, path: nil, context: [])
    }

    /// Runs one epoch: an optional late message, random proposals by reference, a commit with random adds and removes by
    /// value, joins from the Welcome, then application messages from random members.
    mutating func runEpoch() throws {
        let names = members.keys.sorted()
        let committer = try #require(names.randomElement(using: &rng))
        let committerLeaf = try state(committer).ownLeaf
        let epoch = try state(committer).epoch
        var touched: Set<LeafIndex> = [committerLeaf]
        var leaving: Set<Int> = []
        var joiners: [Candidate] = []
        var size = members.count

        // A message of this epoch that arrives only after the commit (kept secrets of past epochs must decrypt it).
        var late: (sender: Int, leaf: LeafIndex, message: MLSMessage, data: [UInt8])?
        if let sender = names.filter({ $0 != committer }).randomElement(using: &rng) {
            var senderState = try state(sender)
            let data = Array("late \(epoch) from \(sender)".utf8)
            late = (sender, senderState.ownLeaf, try senderState.encryptApplication(data), data)
            members[sender] = senderState
        }

        // Proposals by reference.
        if rng.chance(40), let proposer = names.filter({ $0 != committer }).randomElement(using: &rng) {
            var proposerState = try state(proposer)
            let message = try proposerState.proposeUpdate(wireFormat: randomWireFormat())
            members[proposer] = proposerState
            touched.insert(proposerState.ownLeaf)
            try broadcastProposal(message, from: proposer)
        }
        if rng.chance(35), size > 2, let proposer = names.randomElement(using: &rng),
           let target = try names.filter({ !touched.contains(try state($0).ownLeaf) }).randomElement(using: &rng) {
            var proposerState = try state(proposer)
            let leaf = try state(target).ownLeaf
            let message = try proposerState.propose(.remove(leaf), wireFormat: randomWireFormat())
            members[proposer] = proposerState
            touched.insert(leaf)
            leaving.insert(target)
            size -= 1
            try broadcastProposal(message, from: proposer)
        }
        if rng.chance(35), size < maxSize, let proposer = names.randomElement(using: &rng) {
            let candidate = try makeCandidate()
            var proposerState = try state(proposer)
            let message = try proposerState.propose(.add(candidate.keyPackage), wireFormat: randomWireFormat())
            members[proposer] = proposerState
            joiners.append(candidate)
            size += 1
            try broadcastProposal(message, from: proposer)
        }

        // Proposals by value.
        var removing: [LeafIndex] = []
        for _ in 0..<Int.random(in: 0...1, using: &rng) where size > 2 {
            guard let target = try names.filter({ !touched.contains(try state($0).ownLeaf) }).randomElement(using: &rng) else { break }
            let leaf = try state(target).ownLeaf
            removing.append(leaf)
            touched.insert(leaf)
            leaving.insert(target)
            size -= 1
        }
        var adding: [Candidate] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) where size < maxSize {
            adding.append(try makeCandidate())
            size += 1
        }
        joiners += adding

        var committerState = try state(committer)
        let treeInWelcome = rng.chance(70)
        let pending = try committerState.commit(adding: adding.map(\.keyPackage), removing: removing, includePath: rng.chance(50),
                                                wireFormat: randomWireFormat(), ratchetTreeInWelcome: treeInWelcome)
        commits += 1
        let before = members
        try deliverForgery(of: pending.message, to: try #require(names.first { $0 != committer }))
        var next: [Int: GroupState] = [committer: pending.newState]
        for name in names where name != committer {
            var receiver = try #require(before[name])
            let result = try receiver.handle(pending.message)
            if leaving.contains(name) {
                #expect(result == .removedFromGroup, "seed \(seed): removed member \(name) got \(result)")
                removed.append(Removed(name: name, removedAt: epoch + 1, state: receiver))
            } else {
                #expect(result == .newEpoch(epoch + 1), "seed \(seed): member \(name) got \(result)")
                next[name] = receiver
            }
        }

        // Path secrets of this commit: readable by a surviving member, by no removed member (including those it removes).
        var path: UpdatePath?
        if case .publicMessage(let message) = pending.message.body, case .commit(let commit) = message.content.body { path = commit.path }
        var provisional = pending.newState.context
        provisional.confirmedTranscriptHash = try state(committer).context.confirmedTranscriptHash
        // (A member whose Update is in this commit holds its new leaf key only in its pending Update keys: skip those.)
        if let path, let survivor = names.first(where: { name in
            name != committer && !leaving.contains(name) && before[name].map { !touched.contains($0.ownLeaf) } == true
        }) {
            #expect(try pathSecretReadable(path, keys: #require(before[survivor]).privateKeys, context: provisional.tlsEncoded),
                    "seed \(seed): surviving member \(survivor) cannot read the path")
        }
        probeRemoved(with: pending.message, path: path, context: provisional.tlsEncoded, removedBy: epoch + 1)

        let welcomeTree = treeInWelcome ? nil : pending.newState.tree
        for joiner in joiners {
            let welcome = try #require(pending.welcome, "seed \(seed): commit adding members has no Welcome")
            next[joiner.name] = try GroupState(welcome: welcome, keyPackage: joiner.keyPackage, secrets: joiner.secrets, ratchetTree: welcomeTree,
                                               configuration: Self.configuration)
        }
        members = next
        try checkAgreement()

        if let late {
            for name in members.keys.sorted() where name != late.sender && before[name] != nil {
                var receiver = try state(name)
                #expect(try receiver.handle(late.message) == .application(data: late.data, sender: late.leaf), "seed \(seed): late message to \(name)")
                members[name] = receiver
                applicationDeliveries += 1
            }
        }
        for round in 0..<2 {
            try sendApplicationMessage(Array("epoch \(epoch + 1) round \(round)".utf8))
        }
    }

    /// A copy of `message` with one random byte changed is refused by `name` and leaves its state as it was.
    mutating func deliverForgery(of message: MLSMessage, to name: Int) throws {
        var bytes = message.tlsEncoded
        let index = Int.random(in: 0..<bytes.count, using: &rng)
        bytes[index] ^= UInt8.random(in: 1...255, using: &rng)
        guard let forged = try? MLSMessage(tlsEncoded: bytes) else { return }
        var receiver = try state(name)
        let before = (receiver.epoch, receiver.epochAuthenticator, receiver.tree, receiver.privateKeys)
        #expect(throws: (any Error).self, "seed \(seed): a commit with byte \(index) changed was accepted") { try receiver.handle(forged) }
        #expect(receiver.epoch == before.0 && receiver.epochAuthenticator == before.1 && receiver.tree == before.2 && receiver.privateKeys == before.3,
                "seed \(seed): a refused forgery changed the state")
    }

    /// One member (chosen at random) encrypts `data`; every other member must decrypt it, no removed member may.
    mutating func sendApplicationMessage(_ data: [UInt8]) throws {
        let sender = try #require(members.keys.sorted().randomElement(using: &rng))
        var senderState = try state(sender)
        let message = try senderState.encryptApplication(data, paddingLength: Int.random(in: 0...16, using: &rng))
        members[sender] = senderState
        for name in members.keys.sorted() where name != sender {
            var receiver = try state(name)
            #expect(try receiver.handle(message) == .application(data: data, sender: senderState.ownLeaf), "seed \(seed): member \(name)")
            members[name] = receiver
            applicationDeliveries += 1
        }
        probeRemoved(with: message, path: nil, context: [])
    }

    /// Every removed member fails to process `message`, to decrypt it with its last keys, and to read any path secret.
    /// Members removed by `message` itself (`removedBy`) are only checked for the path: they process the commit to learn
    /// they were removed.
    mutating func probeRemoved(with message: MLSMessage, path: UpdatePath?, context: [UInt8], removedBy epoch: UInt64? = nil) {
        for member in removed.suffix(Self.removedProbes) {
            if member.removedAt == epoch {
                if let path {
                    #expect(!pathSecretReadable(path, keys: member.state.privateKeys, context: context),
                            "seed \(seed): member \(member.name) read a path secret of the commit removing it")
                }
                removedRejections += 1
                continue
            }
            var copy = member.state
            #expect(throws: (any Error).self, "seed \(seed): removed member \(member.name) processed a later message") { try copy.handle(message) }
            if case .privateMessage(let encrypted) = message.body {
                var secretTree = member.state.secretTree
                #expect(throws: (any Error).self, "seed \(seed): removed member \(member.name) decrypted a later message") {
                    try PrivateMessageProtection.decrypt(encrypted, suite: suite, secretTree: &secretTree,
                                                         senderDataSecret: member.state.secrets.senderDataSecret)
                }
            }
            if let path {
                #expect(!pathSecretReadable(path, keys: member.state.privateKeys, context: context),
                        "seed \(seed): removed member \(member.name) read a path secret")
            }
            removedRejections += 1
        }
    }

    /// True when any of `keys` opens any path-secret ciphertext of `path` under the provisional GroupContext `context`.
    func pathSecretReadable(_ path: UpdatePath, keys: TreePrivateKeys, context: [UInt8]) -> Bool {
        for node in path.nodes {
            for ciphertext in node.encryptedPathSecret {
                for pair in keys.keyPairs.values {
                    if (try? suite.decryptWithLabel(privateKey: pair.privateKey, label: "UpdatePathNode", context: context, ciphertext: ciphertext)) != nil {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// All members are in the same epoch with the same authenticator, tree and exporter output.
    func checkAgreement() throws {
        let states = Array(members.values)
        let first = try #require(states.first)
        #expect(Set(states.map(\.epoch)).count == 1, "seed \(seed): epochs differ")
        #expect(Set(states.map(\.epochAuthenticator)).count == 1, "seed \(seed): epoch authenticators differ at epoch \(first.epoch)")
        #expect(Set(states.map(\.tree)).count == 1, "seed \(seed): trees differ at epoch \(first.epoch)")
        #expect(first.tree.rootTreeHash(suite: suite) == first.context.treeHash, "seed \(seed): tree hash differs from the context")
        #expect(first.tree.occupiedLeaves.count == members.count, "seed \(seed): tree has \(first.tree.occupiedLeaves.count) members")
        let exports = try Set(states.map { try $0.export(label: "agreement", context: [], length: 16) })
        #expect(exports.count == 1, "seed \(seed): exporters differ")
    }
}
