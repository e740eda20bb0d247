/// A member's complete state as bytes, so an application can keep it (sealed) between messages and continue exactly
/// where it stopped: the same keys, the same consumed generations, the same pending proposals and retained epochs.
///
/// Layout (TLS presentation language, every map sorted by key so equal states encode equally):
///
///     uint8 version = 1; uint16 cipher_suite; GroupContext context; RatchetTree tree;
///     uint32 own_leaf; (uint32 node, opaque private<V>, opaque public<V>)<V> path keys;
///     opaque signature_private_key<V>; EpochSecrets (11 x opaque<V>);
///     opaque interim_transcript_hash<V>; opaque confirmation_tag<V>; SecretTree;
///     (opaque id<V>, opaque secret<V>)<V> external PSKs; (opaque group_id<V>, (uint64 epoch, opaque psk<V>)<V>)<V> resumption PSKs;
///     (opaque ref<V>, Proposal, Sender)<V> pending proposals;
///     (GroupContext, (uint32 leaf, opaque signature_key<V>, Credential)<V>, SecretTree, opaque sender_data_secret<V>)<V> past epochs;
///     optional<ReInit>; (opaque private<V>, opaque public<V>)<V> pending update keys
///
/// The application's ``GroupConfiguration`` is not part of it: it is supplied again on restore.
extension GroupState {
    /// The encoding version of ``serializedState()``.
    static let stateVersion: UInt8 = 1
    /// Largest serialized state accepted on restore (a 1,000-member group is a few hundred kilobytes).
    public static let maxSerializedStateBytes = 64 << 20

    /// The state's bytes (secret: seal them before they leave memory).
    public func serializedState() throws -> [UInt8] {
        var writer = TLSWriter()
        writer.writeUInt8(Self.stateVersion)
        suite.id.encode(to: &writer)
        context.encode(to: &writer)
        tree.encode(to: &writer)
        writer.writeUInt32(privateKeys.leaf.value)
        writer.writeVector { inner in
            for (node, pair) in privateKeys.keyPairs.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(node.value)
                inner.writeOpaque(pair.privateKey)
                inner.writeOpaque(pair.publicKey)
            }
        }
        writer.writeOpaque(signaturePrivateKey)
        secrets.encodeState(to: &writer)
        writer.writeOpaque(interimTranscriptHash)
        writer.writeOpaque(confirmationTag)
        secretTree.encodeState(to: &writer)
        writer.writeVector { inner in
            for (id, secret) in psks.external.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                inner.writeOpaque(id)
                inner.writeOpaque(secret)
            }
        }
        writer.writeVector { inner in
            for (group, epochs) in psks.resumption.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                inner.writeOpaque(group)
                inner.writeVector { list in
                    for (epoch, psk) in epochs.sorted(by: { $0.key < $1.key }) {
                        list.writeUInt64(epoch)
                        list.writeOpaque(psk)
                    }
                }
            }
        }
        writer.writeVector { inner in
            for pending in pendingProposals {
                inner.writeOpaque(pending.reference)
                pending.proposal.encode(to: &inner)
                pending.sender.encode(to: &inner)
            }
        }
        writer.writeVector { inner in
            for past in pastEpochs {
                past.context.encode(to: &inner)
                inner.writeVector { list in
                    for (leaf, sender) in past.senders.sorted(by: { $0.key < $1.key }) {
                        list.writeUInt32(leaf)
                        list.writeOpaque(sender.signatureKey)
                        sender.credential.encode(to: &list)
                    }
                }
                past.secretTree.encodeState(to: &inner)
                inner.writeOpaque(past.senderDataSecret)
            }
        }
        writer.writeOptional(reinitialization)
        writer.writeVector { inner in
            for (_, pair) in pendingUpdateKeys.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                inner.writeOpaque(pair.privateKey)
                inner.writeOpaque(pair.publicKey)
            }
        }
        return writer.bytes
    }

    /// Restores a state from ``serializedState()`` bytes.
    ///
    /// - Throws: ``MLSCodecError`` for anything but exactly one well-formed state of a supported suite (wrong version,
    ///   truncation, trailing bytes, sizes that do not match the suite, indices outside the tree). Restore only bytes
    ///   this application produced and kept authenticated (sealed): the contents are not re-derived.
    public init(serializedState bytes: [UInt8], configuration: GroupConfiguration) throws {
        guard bytes.count <= Self.maxSerializedStateBytes else {
            throw MLSCodecError.invalidValue(field: "GroupState", reason: "larger than \(Self.maxSerializedStateBytes) bytes")
        }
        var reader = TLSReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.stateVersion else { throw MLSCodecError.unknownValue(field: "GroupState.version", value: UInt64(version)) }
        let suite = try CipherSuite(try CipherSuiteID(from: &reader))
        let context = try GroupContext(from: &reader)
        guard context.cipherSuite == suite.id else { throw MLSCodecError.invalidValue(field: "GroupState.context", reason: "suite mismatch") }
        // The bytes are the application's own, kept sealed (authenticated): the tree is not re-hashed against the
        // context here, which would cost a hash of every node on every restore.
        let tree = try RatchetTree(from: &reader)
        let leaf = LeafIndex(try reader.readUInt32())
        var pairs: [NodeIndex: KeyPair] = [:]
        var keyReader = try reader.readVectorReader()
        while !keyReader.isAtEnd {
            let node = NodeIndex(try keyReader.readUInt32())
            guard tree.math.contains(node) else { throw MLSCodecError.invalidValue(field: "GroupState.keys", reason: "\(node) outside the tree") }
            pairs[node] = KeyPair(privateKey: try keyReader.readOpaque(), publicKey: try keyReader.readOpaque())
        }
        guard tree.leaf(leaf) != nil, let leafPair = pairs[leaf.nodeIndex] else {
            throw MLSCodecError.invalidValue(field: "GroupState.keys", reason: "no key for the member's own leaf")
        }
        var privateKeys = TreePrivateKeys(leaf: leaf, leafKeyPair: leafPair)
        for (node, pair) in pairs where node != leaf.nodeIndex { privateKeys.setKeyPair(pair, for: node) }
        let signaturePrivateKey = try reader.readOpaque()
        let secrets = try EpochSecrets(stateFrom: &reader, suite: suite)
        self.init(suite: suite, context: context, tree: tree, privateKeys: privateKeys, signaturePrivateKey: signaturePrivateKey,
                  secrets: secrets, configuration: configuration)
        interimTranscriptHash = try reader.readOpaque()
        confirmationTag = try reader.readOpaque()
        secretTree = try SecretTree(stateFrom: &reader, suite: suite)
        var external: [[UInt8]: [UInt8]] = [:]
        var externalReader = try reader.readVectorReader()
        while !externalReader.isAtEnd { external[try externalReader.readOpaque()] = try externalReader.readOpaque() }
        var resumption: [[UInt8]: [UInt64: [UInt8]]] = [:]
        var resumptionReader = try reader.readVectorReader()
        while !resumptionReader.isAtEnd {
            let group = try resumptionReader.readOpaque()
            var epochs: [UInt64: [UInt8]] = [:]
            var epochReader = try resumptionReader.readVectorReader()
            while !epochReader.isAtEnd { epochs[try epochReader.readUInt64()] = try epochReader.readOpaque() }
            resumption[group] = epochs
        }
        psks = PSKStore(external: external, resumption: resumption)
        var proposals: [PendingProposal] = []
        var proposalReader = try reader.readVectorReader()
        while !proposalReader.isAtEnd {
            proposals.append(PendingProposal(
                reference: try proposalReader.readOpaque(), proposal: try Proposal(from: &proposalReader), sender: try Sender(from: &proposalReader)
            ))
        }
        pendingProposals = proposals
        var past: [PastEpoch] = []
        var pastReader = try reader.readVectorReader()
        while !pastReader.isAtEnd {
            let pastContext = try GroupContext(from: &pastReader)
            var senders: [UInt32: PastSender] = [:]
            var senderReader = try pastReader.readVectorReader()
            while !senderReader.isAtEnd {
                let leaf = try senderReader.readUInt32()
                senders[leaf] = PastSender(signatureKey: try senderReader.readOpaque(), credential: try Credential(from: &senderReader))
            }
            let pastSecretTree = try SecretTree(stateFrom: &pastReader, suite: suite)
            past.append(PastEpoch(context: pastContext, senders: senders, secretTree: pastSecretTree, senderDataSecret: try pastReader.readOpaque()))
        }
        pastEpochs = past
        reinitialization = try reader.readOptional(of: ReInit.self)
        var updates: [[UInt8]: KeyPair] = [:]
        var updateReader = try reader.readVectorReader()
        while !updateReader.isAtEnd {
            let pair = KeyPair(privateKey: try updateReader.readOpaque(), publicKey: try updateReader.readOpaque())
            updates[pair.publicKey] = pair
        }
        pendingUpdateKeys = updates
        try reader.expectEnd()
    }
}
