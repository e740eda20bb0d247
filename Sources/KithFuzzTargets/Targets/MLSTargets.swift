import KithGroups
import KithMLS

extension FuzzTarget {
    /// An MLS message (public, private, Welcome, GroupInfo or KeyPackage wire format).
    static let mlsMessage = FuzzTarget(name: "mls-message", summary: "KithMLS MLSMessage in every wire format") { input in
        MLSFuzz.roundTrip(MLSMessage.self, input)
    }

    /// A Welcome, a GroupInfo and a KeyPackage on their own (as Kith carries them in feed content).
    static let mlsWelcome = FuzzTarget(name: "mls-welcome", summary: "KithMLS Welcome, GroupInfo and KeyPackage; KithGroups' KeyPackage rules") { input in
        MLSFuzz.roundTrip(Welcome.self, input)
        MLSFuzz.roundTrip(GroupInfo.self, input)
        MLSFuzz.roundTrip(KeyPackage.self, input)
        _ = try? GroupKeyPackage.decode(input)
    }

    /// Kith's group policy extension (versions 1 and 2) and a committer readmission warrant, as a member reads them
    /// from a commit: whatever decodes encodes back to the same bytes.
    static let groupPolicy = FuzzTarget(name: "group-policy", summary: "KithGroups policy 0xFF10 (v1, v2) and CommitterReadmission") { input in
        if let policy = try? GroupPolicy(extensions: [Extension(type: GroupPolicy.extensionType, data: input)]) {
            FuzzProperty.require(policy.groupContextExtension.data == input, "a decoded policy encodes back to its bytes")
            FuzzProperty.require(policy.readmissions.count <= GroupPolicy.maxReadmissions, "a policy keeps a bounded list")
        }
        if let warrant = try? CommitterReadmission(decoding: input) {
            FuzzProperty.require(warrant.encoded == input, "a decoded warrant encodes back to its bytes")
        }
    }

    /// A ratchet tree as it travels beside a Welcome, then its validation for the default suite.
    static let mlsRatchetTree = FuzzTarget(name: "mls-ratchet-tree", summary: "KithMLS ratchet tree decoding and validation") { input in
        guard let tree = MLSFuzz.roundTrip(RatchetTree.self, input), tree.leafCount <= 64 else { return }
        guard let suite = try? CipherSuite(rawValue: 1) else { return }
        try? tree.validate(suite: suite, groupID: [])
        _ = tree.rootTreeHash(suite: suite)
    }
}

enum MLSFuzz {
    /// Decodes `input` whole as `Value`; an accepted value must encode to bytes that decode to the same value.
    @discardableResult
    static func roundTrip<Value: TLSCodable & Equatable>(_ type: Value.Type, _ input: [UInt8]) -> Value? {
        guard let value = try? Value(tlsEncoded: input) else { return nil }
        let again = try? Value(tlsEncoded: value.tlsEncoded)
        FuzzProperty.require(again == value, "\(Value.self) does not survive re-encoding")
        return value
    }
}
