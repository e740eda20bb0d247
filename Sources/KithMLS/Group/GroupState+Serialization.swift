/// Storing a member's state between messages and restoring it exactly (the application seals the bytes at rest).
///
/// The bytes are a ``GroupStateFormat`` envelope (version, body, checksum) around this body, in TLS presentation
/// language with every map written in ascending key order (one state, one encoding):
///
/// ```
/// CipherSuite cipher_suite;
/// GroupContext context;
/// RatchetTreeState tree;                       // every node slot
/// TreePrivateKeysState private_keys;           // leaf index and HPKE key pairs of the path
/// opaque signature_private_key<V>;
/// EpochSecretsState secrets;
/// opaque interim_transcript_hash<V>;
/// opaque confirmation_tag<V>;
/// SecretTreeState secret_tree;                 // ratchet generations and retained skipped keys
/// PSKStoreState psks;
/// PendingProposalState pending_proposals<V>;   // arrival order
/// PastEpochState past_epochs<V>;               // oldest first; each epoch's senders, not its whole tree
/// optional<ReInit> reinitialization;
/// struct { opaque private_key<V>; opaque public_key<V>; } pending_update_keys<V>;
/// ```
/// Counts and lengths are bounded by ``MLSLimits`` (``MLSLimits/maxStoredPastEpochs``, ``MLSLimits/maxStoredPendingProposals``,
/// ``MLSLimits/maxStoredPSKs``, ``MLSLimits/maxStoredKeyLength``, ``MLSLimits/maxForwardRatchet`` skipped keys per ratchet);
/// every secret has the exact size of the suite. The ``GroupConfiguration`` is not stored: it is supplied at restore.
extension GroupState {
    /// Largest serialized state accepted on restore (a 1,000-member group is a few hundred kilobytes).
    public static let maxSerializedStateBytes = 64 << 20

    /// The complete state as bytes for ``init(serializedState:configuration:)``: everything needed to continue exactly
    /// where this value stands, private keys and message-key ratchets included.
    ///
    /// - Throws: ``MLSCodecError/invalidValue(field:reason:)`` when the state holds more than the storable limits of
    ///   ``MLSLimits`` or ``maxSerializedStateBytes`` (for instance a configuration keeping more than ``MLSLimits/maxStoredPastEpochs`` past epochs), and
    ///   ``MLSCodecError/varIntTooLarge(value:)`` when a part exceeds 2^30 - 1 bytes.
    public func serializedState() throws(MLSCodecError) -> [UInt8] {
        try Self.codecErrors("GroupState") {
            var writer = TLSWriter()
            try encodeState(to: &writer)
            let bytes = try GroupStateFormat.seal(body: writer.bytes)
            guard bytes.count <= Self.maxSerializedStateBytes else {
                throw MLSCodecError.invalidValue(field: "GroupState", reason: "\(bytes.count) bytes exceed the restorable \(Self.maxSerializedStateBytes)")
            }
            return bytes
        }
    }

    /// Restores a state written by ``serializedState()``, with the application's `configuration`.
    ///
    /// Past epochs beyond `configuration.pastEpochsForApplicationMessages` are erased, oldest first, as a new epoch would.
    ///
    /// - Throws: ``MLSCodecError`` for a blob of another format version (``MLSCodecError/unknownValue(field:value:)``),
    ///   a truncated blob (``MLSCodecError/truncated(offset:needed:)``), trailing bytes (``MLSCodecError/trailingBytes(count:)``),
    ///   a checksum mismatch or an inconsistent field (``MLSCodecError/invalidValue(field:reason:)``).
    public init(serializedState bytes: [UInt8], configuration: GroupConfiguration) throws(MLSCodecError) {
        guard bytes.count <= Self.maxSerializedStateBytes else {
            throw MLSCodecError.invalidValue(field: "serialized GroupState", reason: "larger than \(Self.maxSerializedStateBytes) bytes")
        }
        self = try Self.codecErrors("serialized GroupState") {
            var reader = TLSReader(try GroupStateFormat.open(bytes))
            let state = try GroupState(stateFrom: &reader, configuration: configuration)
            try reader.expectEnd()
            return state
        }
    }

    /// Runs `body`, reporting any non-codec error (an unsupported suite, a malformed tree) as an invalid `field`.
    private static func codecErrors<T>(_ field: String, _ body: () throws -> T) throws(MLSCodecError) -> T {
        do {
            return try body()
        } catch let error as MLSCodecError {
            throw error
        } catch {
            throw MLSCodecError.invalidValue(field: field, reason: "\(error)")
        }
    }

    /// Writes the body described in the extension's documentation.
    private func encodeState(to writer: inout TLSWriter) throws {
        guard pastEpochs.count <= MLSLimits.maxStoredPastEpochs else {
            throw MLSCodecError.invalidValue(field: "past epochs", reason: "\(pastEpochs.count) exceed the storable \(MLSLimits.maxStoredPastEpochs)")
        }
        guard pendingProposals.count <= MLSLimits.maxStoredPendingProposals, pendingUpdateKeys.count <= MLSLimits.maxStoredPendingProposals else {
            throw MLSCodecError.invalidValue(field: "pending proposals", reason: "more than the storable \(MLSLimits.maxStoredPendingProposals)")
        }
        let updateKeys = pendingUpdateKeys.values.sorted { CanonicalOrder.precedes($0.publicKey, $1.publicKey) }
        for key in [signaturePrivateKey] + updateKeys.flatMap({ [$0.privateKey, $0.publicKey] }) where key.count > MLSLimits.maxStoredKeyLength {
            throw MLSCodecError.invalidValue(field: "GroupState keys", reason: "a key exceeds \(MLSLimits.maxStoredKeyLength) bytes")
        }
        suite.id.encode(to: &writer)
        context.encode(to: &writer)
        try tree.encodeState(to: &writer)
        try privateKeys.encodeState(to: &writer)
        writer.writeOpaque(signaturePrivateKey)
        secrets.encodeState(to: &writer)
        writer.writeOpaque(interimTranscriptHash)
        writer.writeOpaque(confirmationTag)
        secretTree.encodeState(to: &writer)
        try psks.encodeState(to: &writer)
        try writer.writeCheckedVector { inner in for pending in pendingProposals { pending.encodeState(to: &inner) } }
        try writer.writeCheckedVector { inner in for past in pastEpochs { try past.encodeState(to: &inner) } }
        writer.writeOptional(reinitialization)
        writer.writeVector { inner in
            for pair in updateKeys {
                inner.writeOpaque(pair.privateKey)
                inner.writeOpaque(pair.publicKey)
            }
        }
    }

    /// Reads the body written by ``encodeState(to:)``.
    private init(stateFrom reader: inout TLSReader, configuration: GroupConfiguration) throws {
        let suite = try CipherSuite(try CipherSuiteID(from: &reader))
        let context = try GroupContext(from: &reader)
        guard context.cipherSuite == suite.id else {
            throw MLSCodecError.invalidValue(field: "GroupContext", reason: "cipher suite \(context.cipherSuite) differs from the state's \(suite.id)")
        }
        let keyLimit = MLSLimits.maxStoredKeyLength
        self.suite = suite
        self.context = context
        tree = try RatchetTree(stateFrom: &reader)
        privateKeys = try TreePrivateKeys(stateFrom: &reader, tree: tree)
        signaturePrivateKey = try reader.readOpaque(atMost: keyLimit, field: "signature private key")
        secrets = try EpochSecrets(stateFrom: &reader, suite: suite)
        interimTranscriptHash = try reader.readOpaque(exactly: suite.secretSize, field: "interim transcript hash")
        confirmationTag = try reader.readOpaque(exactly: suite.secretSize, field: "confirmation tag")
        secretTree = try SecretTree(stateFrom: &reader, suite: suite)
        psks = try PSKStore(stateFrom: &reader)
        pendingProposals = try reader.readVector(atMost: MLSLimits.maxStoredPendingProposals, field: "pending proposals") {
            try PendingProposal(stateFrom: &$0, suite: suite)
        }
        let past = try reader.readVector(atMost: MLSLimits.maxStoredPastEpochs, field: "past epochs") { try PastEpoch(stateFrom: &$0, suite: suite) }
        pastEpochs = Array(past.suffix(max(0, configuration.pastEpochsForApplicationMessages)))
        reinitialization = try reader.readOptional(of: ReInit.self)
        let updateKeys = try reader.readVector(atMost: MLSLimits.maxStoredPendingProposals, field: "pending Update keys") { sub in
            KeyPair(privateKey: try sub.readOpaque(atMost: keyLimit, field: "Update private key"),
                    publicKey: try sub.readOpaque(atMost: keyLimit, field: "Update public key"))
        }
        try CanonicalOrder.checkAscending(updateKeys.map(\.publicKey), field: "pending Update keys")
        pendingUpdateKeys = Dictionary(uniqueKeysWithValues: updateKeys.map { ($0.publicKey, $0) })
        self.configuration = configuration
    }
}
