/// Capability checks on leaves joining or changing the group — exactly those RFC 9420 requires, and no others.
///
/// - §7.3 (leaf node validation), applied to every new or changed leaf:
///   - the `required_capabilities` of the GroupContext are listed in the leaf's capabilities ("compatible with the
///     group's parameters");
///   - the leaf's credential type is supported by every member, and the leaf supports every credential type in use;
///   - every extension in the leaf's `extensions` is listed in its `capabilities.extensions` (default types 1–5 need
///     not be, §7.2).
/// - §12.1.7 and §13.4: every non-default GroupContext extension is supported (listed) by every member, checked when
///   a leaf joins and when a GroupContextExtensions proposal changes the set.
/// - §10.1 checks the KeyPackage's own `cipher_suite` and `version` fields against the GroupContext (done by the
///   KeyPackage validation, not here).
///
/// Not required, so not checked: that `capabilities.cipher_suites` lists the group's suite, that
/// `capabilities.versions` lists mls10, or that a leaf lists its own credential type. Conformant clients (OpenMLS,
/// mls-rs) send leaves without them; refusing those broke interoperability.
enum CapabilityRules {
    /// Extension types every client supports without listing them (RFC 9420 §7.2: the RFC-defined types 1–5).
    static func isDefault(_ type: ExtensionType) -> Bool { (1...5).contains(type.rawValue) }
    /// Proposal types every client supports without listing them (RFC 9420 §7.2: the RFC-defined types 1–7).
    static func isDefault(_ type: ProposalType) -> Bool { (1...7).contains(type.rawValue) }

    /// Checks that `leaf` can be a member of a group with GroupContext `extensions`, next to the members of `tree`.
    static func check(_ leaf: LeafNode, suite: CipherSuiteID, extensions: [Extension], tree: RatchetTree, ignoring: LeafIndex?) throws {
        try checkOwn(leaf, suite: suite, extensions: extensions)
        try tree.forEachMember { index, member in
            guard index != ignoring else { return }
            guard member.capabilities.credentials.contains(leaf.credential.type), leaf.capabilities.credentials.contains(member.credential.type) else {
                throw MLSGroupError.unsupportedCapability("credential types not mutually supported with \(index)")
            }
        }
    }

    /// The checks of ``check(_:suite:extensions:tree:ignoring:)`` that involve only the leaf and the GroupContext.
    static func checkOwn(_ leaf: LeafNode, suite: CipherSuiteID, extensions: [Extension]) throws {
        let capabilities = leaf.capabilities
        for item in leaf.extensions where !isDefault(item.type) && !capabilities.extensions.contains(item.type) {
            throw MLSGroupError.unsupportedCapability("leaf uses extension \(item.type.rawValue) it does not list")
        }
        try checkRequired(capabilities, extensions: extensions)
    }

    /// Checks that `capabilities` satisfy the `required_capabilities` in `extensions` and list every non-default extension in use.
    static func checkRequired(_ capabilities: Capabilities, extensions: [Extension]) throws {
        for item in extensions where !isDefault(item.type) && !capabilities.extensions.contains(item.type) {
            throw MLSGroupError.unsupportedCapability("member does not support GroupContext extension \(item.type.rawValue)")
        }
        guard let data = extensions.data(of: .requiredCapabilities) else { return }
        let required = try RequiredCapabilities(tlsEncoded: data)
        for type in required.extensionTypes where !isDefault(type) && !capabilities.extensions.contains(type) {
            throw MLSGroupError.unsupportedCapability("required extension \(type.rawValue) not supported")
        }
        for type in required.proposalTypes where !isDefault(type) && !capabilities.proposals.contains(type) {
            throw MLSGroupError.unsupportedCapability("required proposal \(type.rawValue) not supported")
        }
        for type in required.credentialTypes where !capabilities.credentials.contains(type) {
            throw MLSGroupError.unsupportedCapability("required credential \(type.rawValue) not supported")
        }
    }

    /// Checks that every member supports new GroupContext `extensions` (GroupContextExtensions proposal).
    static func checkMembers(of tree: RatchetTree, support extensions: [Extension]) throws {
        try tree.forEachMember { _, member in try checkRequired(member.capabilities, extensions: extensions) }
    }
}
