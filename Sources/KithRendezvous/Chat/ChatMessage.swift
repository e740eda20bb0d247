import KithCanonical

/// One message of a relay chat, before encryption: `kind u8 | UTF-8 text`.
public enum ChatMessage: Sendable, Hashable {
    /// A line the other person typed (valid UTF-8, at most ``ChatLimits/maximumLineBytes`` bytes).
    case line(String)
    /// The other person ended the chat.
    case bye
    /// The first message after a reconnection: how many lines the sender received in this chat so far (the
    /// lines sent beyond that count were lost with the dropped connection).
    case resume(receivedLines: UInt32)

    static let lineKind: UInt8 = 0x01
    static let byeKind: UInt8 = 0x02
    static let resumeKind: UInt8 = 0x03

    /// The plaintext bytes.
    var bytes: [UInt8] {
        switch self {
        case .line(let text): [Self.lineKind] + Array(text.utf8)
        case .bye: [Self.byeKind]
        case .resume(let count): [Self.resumeKind, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        }
    }

    /// Reads a decrypted message.
    /// - Throws: ``ChatError/malformedMessage`` for an unknown kind, a bye with a body, a resume whose body is not
    ///   four bytes, text that is not UTF-8 or longer than ``ChatLimits/maximumLineBytes``.
    init(bytes: [UInt8]) throws(ChatError) {
        var reader = ByteReader(bytes)
        guard let kind = try? reader.readUInt8() else { throw .malformedMessage }
        let body = reader.readRemaining()
        switch kind {
        case Self.lineKind:
            guard body.count <= ChatLimits.maximumLineBytes, let text = String(validating: body, as: UTF8.self) else { throw .malformedMessage }
            self = .line(text)
        case Self.byeKind:
            guard body.isEmpty else { throw .malformedMessage }
            self = .bye
        case Self.resumeKind:
            guard body.count == 4 else { throw .malformedMessage }
            self = .resume(receivedLines: body.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        default:
            throw .malformedMessage
        }
    }
}
