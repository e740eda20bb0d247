import KithCanonical

/// The one-time code a new device shows to receive an identity (docs/CONTINUITY.md, section 7):
///
///     text   "kithmove1." base64url(bytes)
///     bytes  0x01 | port u16 | host length u8 | host (ASCII) | receiver static key 32 | secret 32     (direct)
///            0x02 | join code length u8 | join code (ASCII) | receiver static key 32 | secret 32     (relay)
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
    /// The first byte of a code that goes through a rendezvous server's join-code relay.
    public static let relayVersion: UInt8 = 0x02

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

    /// Makes a relay code; refuses a join code outside 6...64 bytes of `[A-Za-z0-9_-]` and keys of the wrong size.
    public init(relayJoinCode joinCode: String, receiverStaticKey: [UInt8], secret: [UInt8]) throws(MoveError) {
        let bytes = Array(joinCode.utf8)
        guard (MoveLimits.minimumJoinCodeBytes...MoveLimits.maximumJoinCodeBytes).contains(bytes.count) else {
            throw .invalidCode("the join code must be \(MoveLimits.minimumJoinCodeBytes)...\(MoveLimits.maximumJoinCodeBytes) bytes")
        }
        guard bytes.allSatisfy(Self.isJoinCodeByte) else { throw .invalidCode("the join code holds a character outside A-Z a-z 0-9 - _") }
        try self.init(route: .relay(joinCode: joinCode), receiverStaticKey: receiverStaticKey, secret: secret)
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
            switch try reader.readUInt8() {
            case Self.version:
                let port = Int(try reader.readUInt16())
                let hostBytes = try reader.readBytes(Int(try reader.readUInt8()))
                let (key, secret) = try Self.readKeys(&reader)
                guard hostBytes.allSatisfy(Self.isHostByte), let host = String(validating: hostBytes, as: UTF8.self) else {
                    throw MoveError.invalidCode("the host holds a character outside A-Z a-z 0-9 . : -")
                }
                try self.init(host: host, port: port, receiverStaticKey: key, secret: secret)
            case Self.relayVersion:
                let joinCodeBytes = try reader.readBytes(Int(try reader.readUInt8()))
                let (key, secret) = try Self.readKeys(&reader)
                guard joinCodeBytes.allSatisfy(Self.isJoinCodeByte), let joinCode = String(validating: joinCodeBytes, as: UTF8.self) else {
                    throw MoveError.invalidCode("the join code holds a character outside A-Z a-z 0-9 - _")
                }
                try self.init(relayJoinCode: joinCode, receiverStaticKey: key, secret: secret)
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
        var writer = ByteWriter(capacity: 4 + MoveLimits.maximumHostBytes + 64)
        switch route {
        case .direct(let host, let port):
            writer.write(Self.version)
            writer.write(UInt16(port))
            writer.write(UInt8(host.utf8.count))
            writer.write(bytes: Array(host.utf8))
        case .relay(let joinCode):
            writer.write(Self.relayVersion)
            writer.write(UInt8(joinCode.utf8.count))
            writer.write(bytes: Array(joinCode.utf8))
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
