import KithCanonical

/// The first thing each side says, carried encrypted inside the Noise handshake payloads:
/// version u8 | capabilities u16 (3 bytes). Bytes after these are reserved for later versions and ignored.
public struct SyncHello: Hashable, Sendable {
    /// The highest sync protocol version the sender speaks.
    public var version: UInt8
    /// The sender's optional features.
    public var capabilities: SyncCapabilities

    /// Creates a Hello; defaults to this implementation's version and every capability.
    public init(version: UInt8 = SyncLimits.protocolVersion, capabilities: SyncCapabilities = .supported) {
        self.version = version
        self.capabilities = capabilities
    }

    /// Encoded size in this version.
    public static let encodedLength = 3

    /// The 3 wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedLength)
        writer.write(version)
        writer.write(capabilities.rawValue)
        return writer.bytes
    }

    /// Decodes a Hello, ignoring reserved trailing bytes.
    /// - Throws: ``SyncWireError/malformed(_:)`` when shorter than 3 bytes,
    ///   ``SyncWireError/unsupportedVersion(_:)`` for version 0.
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        do {
            version = try reader.readUInt8()
            capabilities = SyncCapabilities(rawValue: try reader.readUInt16())
        } catch { throw .malformed(error) }
        guard version >= 1 else { throw .unsupportedVersion(version) }
    }

    /// What two Hellos agree on: the lower version and the common capabilities.
    public func negotiated(with peer: SyncHello) -> SyncHello {
        SyncHello(version: min(version, peer.version), capabilities: capabilities.intersection(peer.capabilities))
    }
}
