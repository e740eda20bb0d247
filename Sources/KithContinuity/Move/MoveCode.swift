import KithCanonical

/// The one-time code a new device shows to receive an identity (docs/CONTINUITY.md, section 7):
///
///     text   "kithmove1." base64url(bytes)
///     bytes  0x01 | port u16 | host length u8 | host (ASCII) | receiver static key 32 | secret 32     (direct)
///            0x02 | join code length u8 | join code (ASCII) | receiver static key 32 | secret 32     (relay)
///            0x03 | join code length u8 | join code (ASCII) | server URL length u8 | server URL (ASCII)
///                 | receiver static key 32 | secret 32                                            (relay, server named)
///
/// The receiver's static key pins the Noise IK handshake (only the device showing the code can finish it, so
/// nobody else can receive the identity); the secret is proven by the sender right after the handshake (so nobody
/// without the code can push an identity into the new device). The first byte says how the old device reaches the
/// new one (`route`).
public struct MoveCode: Sendable, Equatable {
    /// The text prefix.
    public static let prefix = "kithmove1."
    /// The first byte of a direct (TCP) code.
    public static let version: UInt8 = 0x01
    /// The first byte of a code that goes through a rendezvous server's join-code relay without naming the server.
    public static let relayVersion: UInt8 = 0x02
    /// The first byte of a code that goes through a rendezvous server's join-code relay and names the server's URL.
    public static let relayWithServerVersion: UInt8 = 0x03

    /// How the old device reaches the receiver.
    public let route: MoveRoute
    /// The receiver's ephemeral Noise static public key (X25519).
    public let receiverStaticKey: [UInt8]
    /// The one-time secret (never logged, never stored).
    public let secret: [UInt8]

    /// Where a direct receiver listens (name or address); empty for a relay code.
    public var host: String {
        if case .direct(let host, _) = route { host } else { "" }
    }

    /// The TCP port of a direct receiver; 0 for a relay code.
    public var port: Int {
        if case .direct(_, let port) = route { port } else { 0 }
    }

    /// Whether the code names a rendezvous server by a loopback address (`localhost`, `127.x`, `[::1]`), which another
    /// machine cannot use as is: the old device then needs the server's address as it reaches it.
    public var namesLoopbackServer: Bool {
        guard case .relay(_, let server?) = route else { return false }
        let authority = server.drop { $0 != "/" }.dropFirst(2).lowercased()
        return authority.hasPrefix("localhost") || authority.hasPrefix("127.") || authority.hasPrefix("[::1]")
    }

    /// Makes a direct code; refuses an empty or oversized host, a host with characters outside `[A-Za-z0-9.:-]`, a
    /// port outside 1...65535 and keys of the wrong size.
    public init(host: String, port: Int, receiverStaticKey: [UInt8], secret: [UInt8]) throws(MoveError) {
        let hostBytes = Array(host.utf8)
        guard !hostBytes.isEmpty, hostBytes.count <= MoveLimits.maximumHostBytes else {
            throw .invalidCode("the host must be 1...\(MoveLimits.maximumHostBytes) bytes")
        }
        guard hostBytes.allSatisfy(Self.isHostByte) else { throw .invalidCode("the host holds a character outside A-Z a-z 0-9 . : -") }
        guard (1...65535).contains(port) else { throw .invalidCode("the port must be 1...65535") }
        try self.init(route: .direct(host: host, port: port), receiverStaticKey: receiverStaticKey, secret: secret)
    }

    /// Makes a relay code; refuses a join code outside 6...64 bytes of `[A-Za-z0-9_-]`, a server URL that is not an
    /// `http://` or `https://` URL of 10...200 printable ASCII bytes without spaces or quotes, and keys of the wrong
    /// size.
    /// - Parameters:
    ///   - joinCode: The join code of the room.
    ///   - server: The rendezvous server's URL as the receiver reached it, or nil for a code that does not name it.
    ///   - receiverStaticKey: The receiver's ephemeral Noise static public key.
    ///   - secret: The one-time secret the sender proves.
    public init(relayJoinCode joinCode: String, server: String? = nil, receiverStaticKey: [UInt8], secret: [UInt8]) throws(MoveError) {
        let bytes = Array(joinCode.utf8)
        guard (MoveLimits.minimumJoinCodeBytes...MoveLimits.maximumJoinCodeBytes).contains(bytes.count) else {
            throw .invalidCode("the join code must be \(MoveLimits.minimumJoinCodeBytes)...\(MoveLimits.maximumJoinCodeBytes) bytes")
        }
        guard bytes.allSatisfy(Self.isJoinCodeByte) else { throw .invalidCode("the join code holds a character outside A-Z a-z 0-9 - _") }
        if let server { try Self.validate(serverURL: Array(server.utf8)) }
        try self.init(route: .relay(joinCode: joinCode, server: server), receiverStaticKey: receiverStaticKey, secret: secret)
    }

    /// Whether a relay code can carry `url` as its server (see ``init(relayJoinCode:server:receiverStaticKey:secret:)``).
    /// - Parameter url: A rendezvous server's URL.
    public static func canCarry(serverURL url: String) -> Bool {
        do throws(MoveError) {
            try validate(serverURL: Array(url.utf8))
            return true
        } catch {
            return false
        }
    }

    /// Checks a server URL's bytes: its length, an `http://` or `https://` scheme, and only the characters a URL
    /// needs (so printing it cannot drive a terminal, and nothing but a web address reaches the rendezvous client).
    private static func validate(serverURL bytes: [UInt8]) throws(MoveError) {
        guard (MoveLimits.minimumServerURLBytes...MoveLimits.maximumServerURLBytes).contains(bytes.count) else {
            throw .invalidCode("the server URL must be \(MoveLimits.minimumServerURLBytes)...\(MoveLimits.maximumServerURLBytes) bytes")
        }
        guard bytes.starts(with: Array("http://".utf8)) || bytes.starts(with: Array("https://".utf8)) else {
            throw .invalidCode("the server URL must start with http:// or https://")
        }
        guard bytes.allSatisfy(Self.isURLByte) else {
            throw .invalidCode("the server URL holds a character outside the letters, digits and - . _ ~ : / ? # [ ] @ ! $ & ( ) * + , ; = %")
        }
    }

    private init(route: MoveRoute, receiverStaticKey: [UInt8], secret: [UInt8]) throws(MoveError) {
        guard receiverStaticKey.count == MoveLimits.staticKeySize else { throw .invalidCode("the receiver key is not 32 bytes") }
        guard secret.count == MoveLimits.secretSize else { throw .invalidCode("the secret is not 32 bytes") }
        self.route = route
        self.receiverStaticKey = receiverStaticKey
        self.secret = secret
    }

    /// Parses the text form (surrounding whitespace ignored). Refuses over-long text before decoding it.
    public init(text: String) throws(MoveError) {
        let trimmed = text.trimmingSpaces
        guard trimmed.utf8.count <= MoveLimits.maximumCodeCharacters else {
            throw .invalidCode("longer than \(MoveLimits.maximumCodeCharacters) characters")
        }
        guard trimmed.hasPrefix(Self.prefix) else { throw .invalidCode("it does not start with \(Self.prefix)") }
        let bytes: [UInt8]
        do { bytes = try Base64URL.decode(String(trimmed.dropFirst(Self.prefix.count))) } catch {
            throw .invalidCode("not base64url after the prefix")
        }
        var reader = ByteReader(bytes)
        do {
            let kind = try reader.readUInt8()
            switch kind {
            case Self.version:
                let port = Int(try reader.readUInt16())
                let hostBytes = try reader.readBytes(Int(try reader.readUInt8()))
                let (key, secret) = try Self.readKeys(&reader)
                guard hostBytes.allSatisfy(Self.isHostByte), let host = String(validating: hostBytes, as: UTF8.self) else {
                    throw MoveError.invalidCode("the host holds a character outside A-Z a-z 0-9 . : -")
                }
                try self.init(host: host, port: port, receiverStaticKey: key, secret: secret)
            case Self.relayVersion, Self.relayWithServerVersion:
                let namesServer = kind == Self.relayWithServerVersion
                let joinCodeBytes = try reader.readBytes(Int(try reader.readUInt8()))
                let serverBytes = namesServer ? try reader.readBytes(Int(try reader.readUInt8())) : nil
                let (key, secret) = try Self.readKeys(&reader)
                guard joinCodeBytes.allSatisfy(Self.isJoinCodeByte), let joinCode = String(validating: joinCodeBytes, as: UTF8.self) else {
                    throw MoveError.invalidCode("the join code holds a character outside A-Z a-z 0-9 - _")
                }
                // The initializer checks the URL (a byte that is not UTF-8 decodes to U+FFFD, outside its alphabet).
                let server = serverBytes.map { String(decoding: $0, as: UTF8.self) }
                try self.init(relayJoinCode: joinCode, server: server, receiverStaticKey: key, secret: secret)
            default:
                throw MoveError.invalidCode("unknown version")
            }
        } catch let error as MoveError {
            throw error
        } catch {
            throw .invalidCode("truncated or with trailing bytes")
        }
    }

    /// Reads the receiver key and the secret that end every code, and checks nothing follows them.
    private static func readKeys(_ reader: inout ByteReader) throws(ByteReaderError) -> (key: [UInt8], secret: [UInt8]) {
        let key = try reader.readBytes(MoveLimits.staticKeySize)
        let secret = try reader.readBytes(MoveLimits.secretSize)
        try reader.expectEnd()
        return (key, secret)
    }

    /// The text form (also what the QR code holds).
    public var text: String {
        var writer = ByteWriter(capacity: 4 + max(MoveLimits.maximumHostBytes, MoveLimits.maximumJoinCodeBytes + MoveLimits.maximumServerURLBytes) + 64)
        switch route {
        case .direct(let host, let port):
            writer.write(Self.version)
            writer.write(UInt16(port))
            writer.write(UInt8(host.utf8.count))
            writer.write(bytes: Array(host.utf8))
        case .relay(let joinCode, let server):
            writer.write(server == nil ? Self.relayVersion : Self.relayWithServerVersion)
            writer.write(UInt8(joinCode.utf8.count))
            writer.write(bytes: Array(joinCode.utf8))
            if let server {
                writer.write(UInt8(server.utf8.count))
                writer.write(bytes: Array(server.utf8))
            }
        }
        writer.write(bytes: receiverStaticKey)
        writer.write(bytes: secret)
        return Self.prefix + Base64URL.encode(writer.bytes)
    }

    private static func isJoinCodeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    private static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~:/?#[]@!$&()*+,;=%".utf8).contains(byte)
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
