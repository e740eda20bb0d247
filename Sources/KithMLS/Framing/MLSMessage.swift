/// The top-level MLS wire message (RFC 9420 §6).
public struct MLSMessage: Hashable, Sendable, TLSCodable {
    /// The message payload selected by the wire format.
    public enum Body: Hashable, Sendable {
        /// `mls_public_message`.
        case publicMessage(PublicMessage)
        /// `mls_private_message`.
        case privateMessage(PrivateMessage)
        /// `mls_welcome`.
        case welcome(Welcome)
        /// `mls_group_info`.
        case groupInfo(GroupInfo)
        /// `mls_key_package`.
        case keyPackage(KeyPackage)

        /// The matching wire format.
        public var wireFormat: WireFormat {
            switch self {
            case .publicMessage: .publicMessage
            case .privateMessage: .privateMessage
            case .welcome: .welcome
            case .groupInfo: .groupInfo
            case .keyPackage: .keyPackage
            }
        }
    }

    /// The protocol version (must be `mls10`).
    public var version: ProtocolVersion
    /// The payload.
    public var body: Body

    /// Wraps a payload.
    public init(version: ProtocolVersion = .mls10, body: Body) {
        self.version = version
        self.body = body
    }

    /// Encodes the message.
    public func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        body.wireFormat.encode(to: &writer)
        switch body {
        case .publicMessage(let message): message.encode(to: &writer)
        case .privateMessage(let message): message.encode(to: &writer)
        case .welcome(let welcome): welcome.encode(to: &writer)
        case .groupInfo(let info): info.encode(to: &writer)
        case .keyPackage(let package): package.encode(to: &writer)
        }
    }

    /// Decodes a message, rejecting versions other than `mls10` and unknown wire formats.
    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        guard version == .mls10 else { throw MLSCodecError.unknownValue(field: "ProtocolVersion", value: UInt64(version.rawValue)) }
        let wireFormat = try WireFormat(from: &reader)
        switch wireFormat {
        case .publicMessage: body = .publicMessage(try PublicMessage(from: &reader))
        case .privateMessage: body = .privateMessage(try PrivateMessage(from: &reader))
        case .welcome: body = .welcome(try Welcome(from: &reader))
        case .groupInfo: body = .groupInfo(try GroupInfo(from: &reader))
        case .keyPackage: body = .keyPackage(try KeyPackage(from: &reader))
        default: throw MLSCodecError.unknownValue(field: "WireFormat", value: UInt64(wireFormat.rawValue))
        }
    }
}
