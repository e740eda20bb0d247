import KithIdentity
import KithMLS

extension GroupMembership {
    /// The encoding version of ``serialized()``.
    static let storageVersion: UInt8 = 1
    /// The encoding version of ``serializedWithoutRatchets()``: the layout of ``serialized()`` whose MLS state has its
    /// secret trees emptied; it is restored only together with ``serializedRatchets()``.
    static let splitStorageVersion: UInt8 = 2

    /// The bytes the store seals at rest: `version u8 | group id<V> | own feed<V> | intents (update u8, leaf key<V>,
    /// leave u8) | MLS state<V>`.
    public func serialized() throws(GroupError) -> [UInt8] {
        try encoded(version: Self.storageVersion, state: state)
    }

    /// The per-epoch part of the state at rest: the layout of ``serialized()`` (version 2) with the MLS state's secret
    /// trees emptied (``GroupState/withoutRatchets()``). Only a handshake changes it; the message-key ratchets, which
    /// every application message advances, are stored apart (``serializedRatchets()``), so a message rewrites a small
    /// record, not the whole state. Restored with ``init(serialized:ratchets:now:)``.
    public func serializedWithoutRatchets() throws(GroupError) -> [UInt8] {
        try encoded(version: Self.splitStorageVersion, state: state.withoutRatchets())
    }

    /// The message-key ratchets of the state (``GroupState/serializedRatchets()``), stored beside
    /// ``serializedWithoutRatchets()``.
    public func serializedRatchets() throws(GroupError) -> [UInt8] {
        do { return try state.serializedRatchets() } catch { throw .damagedState("\(error)") }
    }

    private func encoded(version: UInt8, state: GroupState) throws(GroupError) -> [UInt8] {
        let mls: [UInt8]
        do { mls = try state.serializedState() } catch { throw .damagedState("\(error)") }
        var writer = TLSWriter(reservingCapacity: mls.count + 128)
        writer.writeUInt8(version)
        writer.writeOpaque(id.rawBytes)
        writer.writeOpaque(ownFeed.rawBytes)
        writer.writeUInt8(intents.update ? 1 : 0)
        writer.writeOpaque(intents.leafKeyWhenAsked)
        writer.writeUInt8(intents.leave ? 1 : 0)
        writer.writeOpaque(mls)
        return writer.bytes
    }

    /// Restores a membership from ``serialized()`` bytes.
    public init(serialized bytes: [UInt8], now: @escaping @Sendable () -> UInt64) throws(GroupError) {
        try self.init(serialized: bytes, ratchets: nil, now: now)
    }

    /// Restores a membership from ``serialized()`` bytes (`ratchets` nil), or from ``serializedWithoutRatchets()``
    /// bytes and the ``serializedRatchets()`` stored with them.
    ///
    /// - Throws: ``GroupError/damagedState(_:)`` for bytes of an unknown version, a split state without its ratchets or
    ///   a whole one with ratchets, or ratchets of another group, epoch or tree shape (see
    ///   ``GroupState/restoreRatchets(_:)``).
    public init(serialized bytes: [UInt8], ratchets: [UInt8]?, now: @escaping @Sendable () -> UInt64) throws(GroupError) {
        do {
            var reader = TLSReader(bytes)
            let version = try reader.readUInt8()
            switch (version, ratchets) {
            case (Self.storageVersion, nil), (Self.splitStorageVersion, _?): break
            case (Self.storageVersion, _?): throw GroupError.damagedState("a whole state stored with separate ratchets")
            case (Self.splitStorageVersion, nil): throw GroupError.damagedState("the state's message-key ratchets are missing")
            default: throw GroupError.damagedState("unknown version")
            }
            let group = try GroupID(rawBytes: try reader.readOpaque())
            let own = try FeedID(rawBytes: try reader.readOpaque())
            var intents = GroupIntents()
            intents.update = try reader.readUInt8() == 1
            intents.leafKeyWhenAsked = try reader.readOpaque()
            intents.leave = try reader.readUInt8() == 1
            var state = try GroupState(serializedState: try reader.readOpaque(), configuration: GroupSuite.configuration(now: now))
            try reader.expectEnd()
            if let ratchets { try state.restoreRatchets(ratchets) }
            guard state.context.groupID == group.rawBytes else { throw GroupError.damagedState("group id mismatch") }
            self.init(id: group, ownFeed: own, state: state, intents: intents)
        } catch let error as GroupError {
            throw error
        } catch {
            throw .damagedState("\(error)")
        }
    }
}
