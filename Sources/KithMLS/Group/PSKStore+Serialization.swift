/// The stored form of a PSK store, part of a serialized ``GroupState``:
///
/// ```
/// struct { opaque psk_id<V>; opaque secret<V>; } external<V>;                  // ascending psk_id
/// struct {
///     opaque group_id<V>;
///     struct { uint64 epoch; opaque secret<V>; } epochs<V>;                     // ascending epoch
/// } resumption<V>;                                                             // ascending group_id
/// ```
/// At most ``MLSLimits/maxStoredPSKs`` secrets in all.
extension PSKStore {
    /// The number of secrets held, external and resumption together.
    var storedCount: Int { external.count + resumption.values.reduce(0) { $0 + $1.count } }

    /// Writes every PSK, throwing when the store holds more than ``MLSLimits/maxStoredPSKs`` secrets or an oversized one.
    func encodeState(to writer: inout TLSWriter) throws {
        guard storedCount <= MLSLimits.maxStoredPSKs else {
            throw MLSCodecError.invalidValue(field: "PSK store", reason: "\(storedCount) PSKs exceed the storable \(MLSLimits.maxStoredPSKs)")
        }
        let external = external.sorted { CanonicalOrder.precedes($0.key, $1.key) }
        let resumption = resumption.sorted { CanonicalOrder.precedes($0.key, $1.key) }
        for item in external.flatMap({ [$0.key, $0.value] }) + resumption.flatMap({ [$0.key] + $0.value.values })
        where item.count > MLSLimits.maxStoredKeyLength {
            throw MLSCodecError.invalidValue(field: "PSK store", reason: "an entry of \(item.count) bytes exceeds \(MLSLimits.maxStoredKeyLength)")
        }
        writer.writeVector { inner in
            for (id, secret) in external {
                inner.writeOpaque(id)
                inner.writeOpaque(secret)
            }
        }
        writer.writeVector { inner in
            for (groupID, epochs) in resumption {
                inner.writeOpaque(groupID)
                inner.writeVector { entries in
                    for (epoch, secret) in epochs.sorted(by: { $0.key < $1.key }) {
                        entries.writeUInt64(epoch)
                        entries.writeOpaque(secret)
                    }
                }
            }
        }
    }

    /// Reads a store written by ``encodeState(to:)``.
    init(stateFrom reader: inout TLSReader) throws {
        let limit = MLSLimits.maxStoredKeyLength
        let external = try reader.readVector(atMost: MLSLimits.maxStoredPSKs, field: "external PSKs") { sub in
            (try sub.readOpaque(atMost: limit, field: "external PSK id"), try sub.readOpaque(atMost: limit, field: "external PSK secret"))
        }
        try CanonicalOrder.checkAscending(external.map(\.0), field: "external PSKs")
        var remaining = MLSLimits.maxStoredPSKs - external.count
        let resumption = try reader.readVector(atMost: remaining, field: "resumption PSK groups") { sub in
            let groupID = try sub.readOpaque(atMost: limit, field: "resumption PSK group id")
            let epochs = try sub.readVector(atMost: remaining, field: "resumption PSKs") { entry in
                (try entry.readUInt64(), try entry.readOpaque(atMost: limit, field: "resumption PSK secret"))
            }
            remaining -= epochs.count
            try CanonicalOrder.checkAscending(epochs.map(\.0), field: "resumption PSKs")
            return (groupID, Dictionary(uniqueKeysWithValues: epochs))
        }
        try CanonicalOrder.checkAscending(resumption.map(\.0), field: "resumption PSK groups")
        self.init(external: Dictionary(uniqueKeysWithValues: external), resumption: Dictionary(uniqueKeysWithValues: resumption))
    }
}
