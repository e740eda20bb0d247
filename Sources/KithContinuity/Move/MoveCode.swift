import KithCanonical

/// The one-time code a new device shows to receive an identity (docs/CONTINUITY.md, section 7):
///
///     text   "kithmove1." base64url(bytes)
///     bytes  version 0x01 | port u16 | host length u8 | host (ASCII) | receiver static key 32 | secret 32
///
/// The receiver's static key pins the Noise IK handshake (only the device showing the code can finish it, so
/// nobody else can receive the identity); the secret is proven by the sender right after the handshake (so nobody
/// without the code can push an identity into the new device).
public struct MoveCode: Sendable, Equatable {
    /// The text prefix.
    public static let prefix = "kithmove1."
    /// The format version byte.
    public static let version: UInt8 = 0x01

    /// Where the receiver listens (name or address).
    public let host: String
    /// The TCP port.
    public let port: Int
    /// The receiver's ephemeral Noise static public key (X25519).
    public let receiverStaticKey: [UInt8]
    /// The one-time secret (never logged, never stored).
    public let secret: [UInt8]

    /// Makes a code; refuses an empty or oversized host, a host with characters outside `[A-Za-z0-9.:-]`, a port
    /// outside 1...65535 and keys of the wrong size.
    public init(host: String, port: Int, receiverStaticKey: [UInt8], secret: [UInt8]) throws(MoveError) {
        let hostBytes = Array(host.utf8)
        guard !hostBytes.isEmpty, hostBytes.count <= MoveLimits.maximumHostBytes else {
            throw .invalidCode("the host must be 1...\(MoveLimits.maximumHostBytes) bytes")
        }
        guard hostBytes.allSatisfy(Self.isHostByte) else { throw .invalidCode("the host holds a character outside A-Z a-z 0-9 . : -") }
        guard (1...65535).contains(port) else { throw .invalidCode("the port must be 1...65535") }
        guard receiverStaticKey.count == MoveLimits.staticKeySize else { throw .invalidCode("the receiver key is not 32 bytes") }
        guard secret.count == MoveLimits.secretSize else { throw .invalidCode("the secret is not 32 bytes") }
        self.host = host
        self.port = port
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
            guard try reader.readUInt8() == Self.version else { throw MoveError.invalidCode("unknown version") }
            let port = Int(try reader.readUInt16())
            let hostLength = Int(try reader.readUInt8())
            let hostBytes = try reader.readBytes(hostLength)
            let key = try reader.readBytes(MoveLimits.staticKeySize)
            let secret = try reader.readBytes(MoveLimits.secretSize)
            try reader.expectEnd()
            guard hostBytes.allSatisfy(Self.isHostByte), let host = String(validating: hostBytes, as: UTF8.self) else {
                throw MoveError.invalidCode("the host holds a character outside A-Z a-z 0-9 . : -")
            }
            try self.init(host: host, port: port, receiverStaticKey: key, secret: secret)
        } catch let error as MoveError {
            throw error
        } catch {
            throw .invalidCode("truncated or with trailing bytes")
        }
    }

    /// The text form (also what the QR code holds).
    public var text: String {
        var writer = ByteWriter(capacity: 4 + host.utf8.count + 64)
        writer.write(Self.version)
        writer.write(UInt16(port))
        writer.write(UInt8(host.utf8.count))
        writer.write(bytes: Array(host.utf8))
        writer.write(bytes: receiverStaticKey)
        writer.write(bytes: secret)
        return Self.prefix + Base64URL.encode(writer.bytes)
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
