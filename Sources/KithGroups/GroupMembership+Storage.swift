import KithIdentity
import KithMLS

extension GroupMembership {
    /// The encoding version of ``serialized()``.
    static let storageVersion: UInt8 = 1

    /// The bytes the store seals at rest: `version u8 | group id<V> | own feed<V> | intents (update u8, leaf key<V>,
    /// leave u8) | MLS state<V>`.
    public func serialized() throws(GroupError) -> [UInt8] {
        let mls: [UInt8]
        do { mls = try state.serializedState() } catch { throw .damagedState("\(error)") }
        var writer = TLSWriter(reservingCapacity: mls.count + 128)
        writer.writeUInt8(Self.storageVersion)
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
        do {
            var reader = TLSReader(bytes)
            guard try reader.readUInt8() == Self.storageVersion else { throw GroupError.damagedState("unknown version") }
            let group = try GroupID(rawBytes: try reader.readOpaque())
            let own = try FeedID(rawBytes: try reader.readOpaque())
            var intents = GroupIntents()
            intents.update = try reader.readUInt8() == 1
            intents.leafKeyWhenAsked = try reader.readOpaque()
            intents.leave = try reader.readUInt8() == 1
            let state = try GroupState(serializedState: try reader.readOpaque(), configuration: GroupSuite.configuration(now: now))
            try reader.expectEnd()
            guard state.context.groupID == group.rawBytes else { throw GroupError.damagedState("group id mismatch") }
            self.init(id: group, ownFeed: own, state: state, intents: intents)
        } catch let error as GroupError {
            throw error
        } catch {
            throw .damagedState("\(error)")
        }
    }
}
