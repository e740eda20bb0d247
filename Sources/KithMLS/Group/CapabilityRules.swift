/// The capability checks RFC 9420 requires, and only those.
///
/// | Rule | Source | Checked for |
/// |------|--------|-------------|
/// | The leaf's `capabilities.credentials` lists the credential type the leaf uses. | §7.2 | every new or changed leaf |
/// | The leaf's `capabilities.extensions` lists every non-default extension in the leaf's `extensions`. | §7.2, §7.3 | every new or changed leaf |
/// | The leaf's capabilities list the extension, proposal and credential types of the GroupContext `required_capabilities`. | §7.3 ("compatible with the group's parameters"), §11.1 | every new or changed leaf |
/// | The leaf's `capabilities.extensions` lists every non-default GroupContext extension. | §13.4 (an extension in use by the group is supported by all members) | every new or changed leaf |
/// | Every other member supports the leaf's credential type, and the leaf supports every credential type the other members use. | §7.3, §13.3 | every new or changed leaf |
/// | A GroupContextExtensions proposal's extensions and `required_capabilities` are supported by every member after the commit (members added by it included, members it removes excluded). | §12.1.7, §11.1, §13.4 | GroupContextExtensions |
/// | A client joining from a Welcome supports every non-default GroupContext extension. | §13.4 | the joiner's own leaf |
///
/// A "new or changed leaf" is the leaf of a KeyPackage in an Add (§10.1: its leaf must be valid per §7.3; §12.1.1), the
/// leaf of an Update (§12.1.2) and the leaf of a commit's UpdatePath (§7.5, same restrictions as an Update).
///
/// Not checked, because no section requires it: that `capabilities.cipher_suites` lists the group's cipher suite or
/// `capabilities.versions` lists mls10. The suite and version of an added member are the KeyPackage's own `cipher_suite`
/// and `version` fields, which must match the GroupContext (§10.1, ``GroupState/validateKeyPackage(_:in:)``). Default
/// proposal types (1–7) and extension types (1–5) are supported by every client and never listed (§7.2, §11.1).
enum CapabilityRules {
    /// Extension types every client supports without listing them (RFC 9420 §7.2: the RFC-defined types 1–5).
    static func isDefault(_ type: ExtensionType) -> Bool { (1...5).contains(type.rawValue) }

    /// Proposal types every client supports without listing them (RFC 9420 §7.2: the RFC-defined types 1–7).
    static func isDefault(_ type: ProposalType) -> Bool { (1...7).contains(type.rawValue) }

    /// Checks a new or changed `leaf` against GroupContext `extensions` and the members of `tree` (all leaf rules of the
    /// table); `ignoring` is the leaf the node replaces, if any.
    static func check(_ leaf: LeafNode, extensions: [Extension], tree: RatchetTree, ignoring: LeafIndex?) throws {
        try checkOwn(leaf, extensions: extensions)
        try tree.forEachMember { index, member in
            guard index != ignoring else { return }
            guard member.capabilities.credentials.contains(leaf.credential.type), leaf.capabilities.credentials.contains(member.credential.type) else {
                throw MLSGroupError.unsupportedCapability("credential types not mutually supported with \(index)")
            }
        }
    }

    /// The leaf rules that involve only the leaf and the GroupContext `extensions` (§7.2, §7.3, §13.4).
    static func checkOwn(_ leaf: LeafNode, extensions: [Extension]) throws {
        let capabilities = leaf.capabilities
        guard capabilities.credentials.contains(leaf.credential.type) else {
            throw MLSGroupError.unsupportedCapability("leaf does not list its own credential type")
        }
        for item in leaf.extensions where !isDefault(item.type) && !capabilities.extensions.contains(item.type) {
            throw MLSGroupError.unsupportedCapability("leaf uses extension \(item.type.rawValue) it does not list")
        }
        try checkSupport(capabilities, of: extensions)
    }

    /// Checks that `capabilities` list every non-default GroupContext extension in `extensions` (§13.4) and satisfy their
    /// `required_capabilities` (§7.3, §11.1).
    static func checkSupport(_ capabilities: Capabilities, of extensions: [Extension]) throws {
        try checkListed(extensions, in: capabilities, who: "member")
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

    /// Checks that a client joining from a Welcome supports every non-default GroupContext extension, as its own leaf's
    /// `capabilities` state (§13.4).
    static func checkJoiner(_ capabilities: Capabilities, extensions: [Extension]) throws {
        try checkListed(extensions, in: capabilities, who: "this client")
    }

    /// Throws unless `capabilities.extensions` lists every non-default extension type of `extensions`.
    private static func checkListed(_ extensions: [Extension], in capabilities: Capabilities, who: String) throws {
        for item in extensions where !isDefault(item.type) && !capabilities.extensions.contains(item.type) {
            throw MLSGroupError.unsupportedCapability("\(who) does not support GroupContext extension \(item.type.rawValue)")
        }
    }

    /// Checks that every member of `tree` supports new GroupContext `extensions` (GroupContextExtensions proposal, §12.1.7).
    static func checkMembers(of tree: RatchetTree, support extensions: [Extension]) throws {
        try tree.forEachMember { _, member in try checkSupport(member.capabilities, of: extensions) }
    }
}
