import KithMLS
/// A `message-protection.json` case (RFC 9420 §6): unprotect the given messages and round-trip our own.
public struct MessageProtectionVector: ConformanceVector {
    /// `message-protection.json`.
    public static let fileName = "message-protection.json"

    let cipher_suite: UInt16
    let group_id: HexString
    let epoch: UInt64
    let tree_hash: HexString
    let confirmed_transcript_hash: HexString
    let signature_priv: HexString
    let signature_pub: HexString
    let encryption_secret: HexString
    let sender_data_secret: HexString
    let membership_key: HexString
    let proposal: HexString
    let proposal_pub: HexString
    let proposal_priv: HexString
    let commit: HexString
    let commit_pub: HexString
    let commit_priv: HexString
    let application: HexString
    let application_priv: HexString

    private struct Context {
        let suite: CipherSuite
        let vector: MessageProtectionVector
        let groupContext: GroupContext

        func secretTree() throws -> SecretTree {
            try SecretTree(suite: suite, encryptionSecret: vector.encryption_secret.bytes, leafCount: 2)
        }

        func verify(_ content: AuthenticatedContent, _ field: String) throws {
            try Conformance.expect(content.verifySignature(suite: suite, signerKey: vector.signature_pub.bytes, context: groupContext),
                                   "\(field): signature does not verify")
        }

        func unprotectPublic(_ bytes: [UInt8], _ field: String) throws -> FramedContentBody {
            guard case .publicMessage(let message) = try MLSMessage(tlsEncoded: bytes).body else { throw ConformanceMismatch("\(field): not a PublicMessage") }
            let content = try PublicMessageProtection.unprotect(message, suite: suite, membershipKey: vector.membership_key.bytes, context: groupContext)
            try verify(content, field)
            return content.content.body
        }

        func unprotectPrivate(_ bytes: [UInt8], _ field: String) throws -> FramedContentBody {
            guard case .privateMessage(let message) = try MLSMessage(tlsEncoded: bytes).body else { throw ConformanceMismatch("\(field): not a PrivateMessage") }
            var tree = try secretTree()
            let content = try PrivateMessageProtection.decrypt(message, suite: suite, secretTree: &tree, senderDataSecret: vector.sender_data_secret.bytes)
            try verify(content, field)
            return content.content.body
        }

        func roundTrip(_ body: FramedContentBody, publicToo: Bool, _ field: String) throws {
            let framed = FramedContent(groupID: vector.group_id.bytes, epoch: vector.epoch, sender: .member(LeafIndex(1)), authenticatedData: [], body: body)
            let tag: [UInt8]? = body.contentType == .commit ? suite.zeroSecret : nil
            if publicToo {
                let signed = try AuthenticatedContent.sign(wireFormat: .publicMessage, content: framed, context: groupContext, suite: suite,
                                                           signaturePrivateKey: vector.signature_priv.bytes, confirmationTag: tag)
                let message = try PublicMessageProtection.protect(signed, suite: suite, membershipKey: vector.membership_key.bytes, context: groupContext)
                let wire = MLSMessage(body: .publicMessage(message)).tlsEncoded
                try Conformance.expectEqual("\(field) public round trip", try unprotectPublic(wire, field), body)
            }
            let signed = try AuthenticatedContent.sign(wireFormat: .privateMessage, content: framed, context: groupContext, suite: suite,
                                                       signaturePrivateKey: vector.signature_priv.bytes, confirmationTag: tag)
            var tree = try secretTree()
            let message = try PrivateMessageProtection.encrypt(signed, suite: suite, secretTree: &tree,
                                                               senderDataSecret: vector.sender_data_secret.bytes, paddingLength: 7)
            let wire = MLSMessage(body: .privateMessage(message)).tlsEncoded
            try Conformance.expectEqual("\(field) private round trip", try unprotectPrivate(wire, field), body)
        }
    }

    /// Unprotects the proposal, commit and application messages and round-trips freshly protected ones.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let groupContext = GroupContext(cipherSuite: suite.id, groupID: group_id.bytes, epoch: epoch, treeHash: tree_hash.bytes,
                                            confirmedTranscriptHash: confirmed_transcript_hash.bytes, extensions: [])
            let context = Context(suite: suite, vector: self, groupContext: groupContext)
            let proposalBody = FramedContentBody.proposal(try Proposal(tlsEncoded: proposal.bytes))
            let commitBody = FramedContentBody.commit(try Commit(tlsEncoded: commit.bytes))
            let applicationBody = FramedContentBody.application(application.bytes)

            try Conformance.expectEqual("proposal_pub", try context.unprotectPublic(proposal_pub.bytes, "proposal_pub"), proposalBody)
            try Conformance.expectEqual("proposal_priv", try context.unprotectPrivate(proposal_priv.bytes, "proposal_priv"), proposalBody)
            try Conformance.expectEqual("commit_pub", try context.unprotectPublic(commit_pub.bytes, "commit_pub"), commitBody)
            try Conformance.expectEqual("commit_priv", try context.unprotectPrivate(commit_priv.bytes, "commit_priv"), commitBody)
            try Conformance.expectEqual("application_priv", try context.unprotectPrivate(application_priv.bytes, "application_priv"), applicationBody)

            try context.roundTrip(proposalBody, publicToo: true, "proposal")
            try context.roundTrip(commitBody, publicToo: true, "commit")
            try context.roundTrip(applicationBody, publicToo: false, "application")
        }
    }
}
