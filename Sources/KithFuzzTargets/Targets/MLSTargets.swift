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
