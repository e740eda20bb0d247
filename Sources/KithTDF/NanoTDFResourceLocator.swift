import KithCanonical

extension NanoTDF {
    /// A resource locator: the KAS address, a remote policy's address or a policy key access address.
    ///
    /// Wire form: protocol byte (bits 7-4 identifier size, bits 3-0 protocol) ‖ body length (1) ‖ body ‖ identifier.
    public struct ResourceLocator: Sendable, Equatable {
        /// The locator's scheme.
        public enum Scheme: UInt8, Sendable, Equatable, CaseIterable {
            /// `http://` (the body is everything after the scheme).
            case http = 0x0
            /// `https://`.
            case https = 0x1
            /// Reserved, left uninterpreted.
            case unreserved = 0x2
            /// Shared resource directory (experimental); Kith's one-time messages use it for a peer address.
            case sharedResourceDirectory = 0xF
        }

        /// The scheme.
        public var scheme: Scheme
        /// The address without its scheme (1 to 255 bytes, e.g. `kas.example.com`).
        public var body: [UInt8]
        /// The key identifier after the body: empty, or exactly 2, 8 or 32 bytes.
        public var identifier: [UInt8]

        /// Creates a locator; throws if the body is empty or too long, or the identifier is not 0, 2, 8 or 32 bytes.
        public init(scheme: Scheme, body: [UInt8], identifier: [UInt8] = []) throws(NanoTDFError) {
            guard !body.isEmpty else { throw .emptyResourceLocator(field: "resource locator") }
            guard body.count <= NanoTDFLimits.maximumLocatorBodyLength else {
                throw .resourceLocatorTooLong(field: "resource locator body", length: body.count)
            }
            guard Self.identifierCode(forSize: identifier.count) != nil else {
                throw .resourceLocatorTooLong(field: "resource locator identifier", length: identifier.count)
            }
            self.scheme = scheme
            self.body = body
            self.identifier = identifier
        }

        /// Creates a locator from a UTF-8 body such as `kas.example.com`.
        public init(scheme: Scheme, body: String, identifier: [UInt8] = []) throws(NanoTDFError) {
            try self.init(scheme: scheme, body: Array(body.utf8), identifier: identifier)
        }

        /// The canonical wire bytes.
        public var serialized: [UInt8] {
            var writer = ByteWriter(capacity: 2 + body.count + identifier.count)
            write(to: &writer)
            return writer.bytes
        }

        func write(to writer: inout ByteWriter) {
            let code = Self.identifierCode(forSize: identifier.count) ?? 0
            writer.write(code << 4 | scheme.rawValue)
            writer.write(UInt8(truncatingIfNeeded: body.count))
            writer.write(bytes: body)
            writer.write(bytes: identifier)
        }

        static func read(from cursor: inout NanoTDFCursor, field: String) throws(NanoTDFError) -> ResourceLocator {
            let protocolByte = try cursor.readByte("\(field) protocol")
            guard let scheme = Scheme(rawValue: protocolByte & 0x0F) else {
                throw .unknownProtocol(protocolByte & 0x0F, field: field)
            }
            let identifierSize: Int
            switch protocolByte >> 4 {
            case 0: identifierSize = 0
            case 1: identifierSize = 2
            case 2: identifierSize = 8
            case 3: identifierSize = 32
            default: throw .unknownIdentifierSize(protocolByte >> 4, field: field)
            }
            let length = Int(try cursor.readByte("\(field) body length"))
            guard length > 0 else { throw .emptyResourceLocator(field: field) }
            let body = try cursor.read(length, "\(field) body")
            let identifier = try cursor.read(identifierSize, "\(field) identifier")
            return try ResourceLocator(scheme: scheme, body: body, identifier: identifier)
        }

        private static func identifierCode(forSize size: Int) -> UInt8? {
            switch size {
            case 0: 0
            case 2: 1
            case 8: 2
            case 32: 3
            default: nil
            }
        }
    }
}
