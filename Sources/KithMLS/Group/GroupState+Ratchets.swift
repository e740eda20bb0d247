/// A member's state stored in two parts: the message-key ratchets (the secret tree of the current epoch and of each
/// retained past epoch), which every application message sent or received advances, and the rest, which only
/// handshakes change. An application can then persist a small ratchets record per application message instead of the
/// whole state (tens of kilobytes for a hundred members), while no consumed key outlives its use in either part: the
/// rest is stored with its secret trees emptied (``withoutRatchets()``).
///
/// The ratchets bytes are a ``GroupStateFormat`` envelope of format version ``ratchetsFormatVersion`` around:
///
/// ```
/// struct {
///     opaque group_id<V>;
///     uint64 epoch;
///     SecretTreeState current;
///     struct { uint64 epoch; SecretTreeState tree; } past<V>;   // the state's past epochs, oldest first
/// } RatchetsState;
/// ```
extension GroupState {
    /// The format version of ``serializedRatchets()`` (distinct from a whole state's, so neither reads as the other).
    static let ratchetsFormatVersion: UInt8 = 0x52

    /// This state with every secret tree emptied (same shapes, no secret left): what is stored beside the ratchets.
    ///
    /// Restored alone it decrypts nothing; ``restoreRatchets(_:)`` puts the trees back.
    public func withoutRatchets() -> GroupState {
        var copy = self
        copy.secretTree = secretTree.emptied()
        for index in copy.pastEpochs.indices { copy.pastEpochs[index].secretTree = pastEpochs[index].secretTree.emptied() }
        return copy
    }

    /// The secret trees of the current and retained past epochs, for ``restoreRatchets(_:)``.
    ///
    /// - Throws: ``MLSCodecError/invalidValue(field:reason:)`` when more past epochs are held than
    ///   ``MLSLimits/maxStoredPastEpochs``.
    public func serializedRatchets() throws(MLSCodecError) -> [UInt8] {
        guard pastEpochs.count <= MLSLimits.maxStoredPastEpochs else {
            throw MLSCodecError.invalidValue(field: "past epochs", reason: "\(pastEpochs.count) exceed the storable \(MLSLimits.maxStoredPastEpochs)")
        }
        var writer = TLSWriter()
        writer.writeOpaque(context.groupID)
        writer.writeUInt64(context.epoch)
        secretTree.encodeState(to: &writer)
        writer.writeVector { inner in
            for past in pastEpochs {
                inner.writeUInt64(past.context.epoch)
                past.secretTree.encodeState(to: &inner)
            }
        }
        do {
            return try GroupStateFormat.seal(body: writer.bytes, version: Self.ratchetsFormatVersion)
        } catch let error as MLSCodecError {
            throw error
        } catch {
            throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "\(error)")
        }
    }

    /// Puts back the secret trees written by ``serializedRatchets()`` into this state (restored from the bytes of
    /// ``withoutRatchets()``, or any state of the same group and epoch).
    ///
    /// The bytes must be of this group and epoch, hold a tree of the same shape for the current epoch and one for each
    /// past epoch this state retains (entries of epochs it no longer retains are dropped, as a restore drops those
    /// epochs); nothing changes when they are not.
    ///
    /// - Throws: ``MLSCodecError`` for bytes of another format, a checksum mismatch, truncation or trailing bytes, or
    ///   ``MLSCodecError/invalidValue(field:reason:)`` for ratchets of another group, epoch or tree shape.
    public mutating func restoreRatchets(_ bytes: [UInt8]) throws(MLSCodecError) {
        guard bytes.count <= Self.maxSerializedStateBytes else {
            throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "larger than \(Self.maxSerializedStateBytes) bytes")
        }
        let suite = suite
        let groupID = context.groupID
        let stateEpoch = context.epoch
        let (current, past) = try Self.ratchetCodecErrors { () throws -> (SecretTree, [UInt64: SecretTree]) in
            var reader = TLSReader(try GroupStateFormat.open(bytes, version: Self.ratchetsFormatVersion))
            guard try reader.readOpaque() == groupID else {
                throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "they belong to another group")
            }
            let epoch = try reader.readUInt64()
            guard epoch == stateEpoch else {
                throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "they are of epoch \(epoch), the state is at \(stateEpoch)")
            }
            let current = try SecretTree(stateFrom: &reader, suite: suite)
            let entries = try reader.readVector(atMost: MLSLimits.maxStoredPastEpochs, field: "past epoch ratchets") { sub in
                (try sub.readUInt64(), try SecretTree(stateFrom: &sub, suite: suite))
            }
            try reader.expectEnd()
            try CanonicalOrder.checkAscending(entries.map(\.0), field: "past epoch ratchets")
            return (current, Dictionary(uniqueKeysWithValues: entries))
        }
        guard current.math == secretTree.math else {
            throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "the current tree's shape differs from the state's")
        }
        var restored = pastEpochs
        for index in restored.indices {
            let epoch = restored[index].context.epoch
            guard let tree = past[epoch], tree.math == restored[index].secretTree.math else {
                throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "no ratchets of the right shape for past epoch \(epoch)")
            }
            restored[index].secretTree = tree
        }
        secretTree = current
        pastEpochs = restored
    }

    /// Runs `body`, reporting any error that is not a codec error as an invalid ratchets field.
    private static func ratchetCodecErrors<T>(_ body: () throws -> T) throws(MLSCodecError) -> T {
        do {
            return try body()
        } catch let error as MLSCodecError {
            throw error
        } catch {
            throw MLSCodecError.invalidValue(field: "GroupState ratchets", reason: "\(error)")
        }
    }
}

extension SecretTree {
    /// The same tree with no secret left: every key of it is gone.
    func emptied() -> SecretTree {
        SecretTree(suite: suite, math: math, nodeSecrets: [:], handshake: [:], application: [:])
    }
}
