import KithMLS
/// A `messages.json` case: byte-exact decode and re-encode of every wire structure (syntax only, no validation).
public struct MessagesVector: ConformanceVector {
    /// `messages.json`.
    public static let fileName = "messages.json"

    let mls_welcome: HexString
    let mls_group_info: HexString
    let mls_key_package: HexString
    let ratchet_tree: HexString
    let group_secrets: HexString
    let add_proposal: HexString
    let update_proposal: HexString
    let remove_proposal: HexString
    let pre_shared_key_proposal: HexString
    let re_init_proposal: HexString
    let external_init_proposal: HexString
    let group_context_extensions_proposal: HexString
    let commit: HexString
    let public_message_application: HexString
    let public_message_proposal: HexString
    let public_message_commit: HexString
    let private_message: HexString

    private static func roundTrip<T: TLSCodable>(_ field: String, _ type: T.Type, _ hex: HexString) throws {
        let value: T
        do {
            value = try T(tlsEncoded: hex.bytes)
        } catch {
            throw ConformanceMismatch("\(field): decode failed: \(error)")
        }
        try Conformance.expectEqual("\(field) re-encoded", value.tlsEncoded, hex.bytes)
    }

    private static func roundTripProposal(_ field: String, _ type: ProposalType, _ hex: HexString) throws {
        do {
            var reader = TLSReader(hex.bytes)
            let proposal = try Proposal.decodeBody(type: type, from: &reader)
            try reader.expectEnd()
            var writer = TLSWriter()
            proposal.encodeBody(to: &writer)
            try Conformance.expectEqual("\(field) re-encoded", writer.bytes, hex.bytes)
        } catch let mismatch as ConformanceMismatch {
            throw mismatch
        } catch {
            throw ConformanceMismatch("\(field): decode failed: \(error)")
        }
    }

    /// Decodes and re-encodes each of the 17 structures.
    public func check() -> VectorOutcome {
        Conformance.run {
            try Self.roundTrip("mls_welcome", MLSMessage.self, mls_welcome)
            try Self.roundTrip("mls_group_info", MLSMessage.self, mls_group_info)
            try Self.roundTrip("mls_key_package", MLSMessage.self, mls_key_package)
            try Self.roundTrip("ratchet_tree", RatchetTree.self, ratchet_tree)
            try Self.roundTrip("group_secrets", GroupSecrets.self, group_secrets)
            try Self.roundTripProposal("add_proposal", .add, add_proposal)
            try Self.roundTripProposal("update_proposal", .update, update_proposal)
            try Self.roundTripProposal("remove_proposal", .remove, remove_proposal)
            try Self.roundTripProposal("pre_shared_key_proposal", .psk, pre_shared_key_proposal)
            try Self.roundTripProposal("re_init_proposal", .reinit, re_init_proposal)
            try Self.roundTripProposal("external_init_proposal", .externalInit, external_init_proposal)
            try Self.roundTripProposal("group_context_extensions_proposal", .groupContextExtensions, group_context_extensions_proposal)
            try Self.roundTrip("commit", Commit.self, commit)
            try Self.roundTrip("public_message_application", MLSMessage.self, public_message_application)
            try Self.roundTrip("public_message_proposal", MLSMessage.self, public_message_proposal)
            try Self.roundTrip("public_message_commit", MLSMessage.self, public_message_commit)
            try Self.roundTrip("private_message", MLSMessage.self, private_message)
        }
    }
}
