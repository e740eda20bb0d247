@testable import KithMLS
import KithMLSConformance
import Testing

/// Proposal-list validation rules (RFC 9420 §12.2) applied while resolving a commit.
@Suite struct ProposalListRulesTests {
    private let committer = Sender.member(LeafIndex(0))
    private let other = Sender.member(LeafIndex(1))

    private func leaf() throws -> LeafNode {
        let suite = try CipherSuite(rawValue: 1)
        return try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                       lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage.leafNode
    }

    @Test func twoGroupContextExtensionsAreRejected() throws {
        var list = ResolvedProposals()
        try list.add(.groupContextExtensions([]), sender: committer, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("more than one GroupContextExtensions")) {
            try list.add(.groupContextExtensions([]), sender: committer, committer: committer)
        }
    }

    @Test func committersOwnUpdateIsRejected() throws {
        var list = ResolvedProposals()
        #expect(throws: MLSGroupError.invalidProposalList("committer included its own Update")) {
            try list.add(.update(try leaf()), sender: committer, committer: committer)
        }
    }

    @Test func updateFromNonMemberIsRejected() throws {
        var list = ResolvedProposals()
        #expect(throws: MLSGroupError.invalidProposalList("Update from a non-member")) {
            try list.add(.update(try leaf()), sender: .external(0), committer: committer)
        }
    }

    @Test func twoUpdatesForOneLeafAreRejected() throws {
        var list = ResolvedProposals()
        try list.add(.update(try leaf()), sender: other, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("two Updates for one leaf")) {
            try list.add(.update(try leaf()), sender: other, committer: committer)
        }
    }

    @Test func duplicateRemoveAndSelfRemoveAreRejected() throws {
        var list = ResolvedProposals()
        try list.add(.remove(LeafIndex(3)), sender: other, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("two Removes for one leaf")) {
            try list.add(.remove(LeafIndex(3)), sender: other, committer: committer)
        }
        #expect(throws: MLSGroupError.invalidProposalList("committer removes itself")) {
            try list.add(.remove(LeafIndex(0)), sender: other, committer: committer)
        }
    }

    @Test func duplicatePSKAndSecondReInitOrExternalInitAreRejected() throws {
        var list = ResolvedProposals()
        let psk = PreSharedKeyID(kind: .external(id: [1]), nonce: [2])
        try list.add(.preSharedKey(psk), sender: other, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("duplicate PSK")) { try list.add(.preSharedKey(psk), sender: other, committer: committer) }
        let reinit = ReInit(groupID: [1], version: .mls10, cipherSuite: .x25519AES128SHA256Ed25519, extensions: [])
        try list.add(.reinit(reinit), sender: other, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("more than one ReInit")) { try list.add(.reinit(reinit), sender: other, committer: committer) }
        try list.add(.externalInit(kemOutput: [1]), sender: committer, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("more than one ExternalInit")) {
            try list.add(.externalInit(kemOutput: [1]), sender: committer, committer: committer)
        }
    }

    @Test func pathRequirement() throws {
        var empty = ResolvedProposals()
        #expect(empty.pathRequired)
        try empty.add(.add(try KeyPackage.generate(suite: try CipherSuite(rawValue: 1), credential: .basic(identity: [1]),
                                                   signatureKeys: try CipherSuite(rawValue: 1).signature.generateKeyPair(),
                                                   lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage),
                       sender: committer, committer: committer)
        #expect(!empty.pathRequired)
        try empty.add(.remove(LeafIndex(2)), sender: committer, committer: committer)
        #expect(empty.pathRequired)
    }

    @Test func reInitMustBeTheOnlyProposal() throws {
        var list = ResolvedProposals()
        try list.add(.reinit(ReInit(groupID: [1], version: .mls10, cipherSuite: .x25519AES128SHA256Ed25519, extensions: [])), sender: other,
                     committer: committer)
        try list.checkReInitAlone()
        try list.add(.remove(LeafIndex(2)), sender: other, committer: committer)
        #expect(throws: MLSGroupError.invalidProposalList("ReInit must be the only proposal of its commit")) { try list.checkReInitAlone() }
    }

    @Test(arguments: [ResumptionPSKUsage.reinit, .branch])
    func pskProposalWithReInitOrBranchUsageIsRejected(usage: ResumptionPSKUsage) throws {
        var list = ResolvedProposals()
        let psk = PreSharedKeyID(kind: .resumption(usage: usage, groupID: [1], epoch: 1), nonce: [2])
        #expect(throws: MLSGroupError.invalidProposalList("PreSharedKey proposal with resumption usage \(usage)")) {
            try list.add(.preSharedKey(psk), sender: other, committer: committer)
        }
    }
}
