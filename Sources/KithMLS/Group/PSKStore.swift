/// The PSK secrets a client can inject: external PSKs by id, and its groups' past resumption PSKs.
public struct PSKStore: Sendable, Hashable {
    /// External PSKs by `psk_id`.
    public var external: [[UInt8]: [UInt8]]
    /// Resumption PSKs by group id and epoch.
    public var resumption: [[UInt8]: [UInt64: [UInt8]]]

    /// Creates a store.
    public init(external: [[UInt8]: [UInt8]] = [:], resumption: [[UInt8]: [UInt64: [UInt8]]] = [:]) {
        self.external = external
        self.resumption = resumption
    }

    /// Resolves identifiers to secrets, throwing ``MLSGroupError/unknownPSK(_:)`` for any unknown one.
    public func resolve(_ ids: [PreSharedKeyID]) throws -> [PreSharedKey] {
        try ids.map { id in
            switch id.kind {
            case .external(let pskID):
                guard let secret = external[pskID] else { throw MLSGroupError.unknownPSK("external \(hex(pskID))") }
                return PreSharedKey(id: id, secret: secret)
            case .resumption(_, let groupID, let epoch):
                guard let secret = resumption[groupID]?[epoch] else { throw MLSGroupError.unknownPSK("resumption epoch \(epoch)") }
                return PreSharedKey(id: id, secret: secret)
            }
        }
    }
}

/// Lowercase hex of a PSK id, for error messages.
private func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0x0F)]) }
    return String(decoding: out, as: UTF8.self)
}
