import KithCanonical

/// One message of the move protocol (docs/CONTINUITY.md, section 7), carried in one record of the Noise link:
///
/// | kind | message | direction | body |
/// |------|---------|-----------|------|
/// | 0x01 | proof | sender → receiver | HMAC-SHA256 of the handshake hash under the code's secret (32) |
/// | 0x02 | accepted | receiver → sender | nothing: the proof matched |
/// | 0x03 | begin | sender → receiver | the stream's size in bytes, u64 (at most `MoveLimits.maximumStreamBytes`) |
/// | 0x04 | data | sender → receiver | the next bytes of the sealed backup stream (at least 1) |
/// | 0x05 | end | sender → receiver | nothing: every announced byte was sent |
/// | 0x06 | done | receiver → sender | the new device's own head after the `device_migration` rotation, u64 |
/// | 0x07 | refused | either | a reason, UTF-8, at most `MoveLimits.maximumReasonBytes` |
public enum MoveMessage: Sendable, Equatable {
    /// The sender's proof that it holds the code.
    case proof([UInt8])
    /// The receiver accepted the proof.
    case accepted
    /// The stream's size.
    case begin(totalBytes: UInt64)
    /// Stream bytes.
    case data([UInt8])
    /// The stream is complete.
    case end
    /// The receiver restored the identity and published the rotation; the sender now stops.
    case done(ownHead: UInt64)
    /// One side refuses to go on.
    case refused(String)

    /// The wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .proof(let proof):
            writer.write(UInt8(0x01))
            writer.write(bytes: proof)
        case .accepted:
            writer.write(UInt8(0x02))
        case .begin(let total):
            writer.write(UInt8(0x03))
            writer.write(total)
        case .data(let bytes):
            writer.write(UInt8(0x04))
            writer.write(bytes: bytes)
        case .end:
            writer.write(UInt8(0x05))
        case .done(let head):
            writer.write(UInt8(0x06))
            writer.write(head)
        case .refused(let reason):
            writer.write(UInt8(0x07))
            writer.write(bytes: Array(reason.utf8).prefix(MoveLimits.maximumReasonBytes))
        }
        return writer.bytes
    }

    /// Decodes one message; every size is checked against `MoveLimits`.
    public init(decoding bytes: [UInt8]) throws(MoveError) {
        var reader = ByteReader(bytes)
        do {
            switch try reader.readUInt8() {
            case 0x01:
                self = .proof(try reader.readBytes(MoveLimits.proofSize))
            case 0x02:
                self = .accepted
            case 0x03:
                let total = try reader.readUInt64()
                guard total <= MoveLimits.maximumStreamBytes else {
                    throw MoveError.oversize("the stream announces \(total) bytes, more than \(MoveLimits.maximumStreamBytes)")
                }
                self = .begin(totalBytes: total)
            case 0x04:
                guard reader.remaining > 0 else { throw MoveError.protocolViolation("an empty data message") }
                self = .data(reader.readRemaining())
            case 0x05:
                self = .end
            case 0x06:
                self = .done(ownHead: try reader.readUInt64())
            case 0x07:
                guard reader.remaining <= MoveLimits.maximumReasonBytes else { throw MoveError.protocolViolation("an over-long refusal") }
                // Outside text: control characters become "?" so a reason cannot drive a terminal.
                let text = String(decoding: reader.readRemaining(), as: UTF8.self)
                self = .refused(String(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) }))
            case let kind:
                throw MoveError.protocolViolation("unknown message kind \(kind)")
            }
            try reader.expectEnd()
        } catch let error as MoveError {
            throw error
        } catch {
            throw .protocolViolation("a truncated or over-long message")
        }
    }

    /// The message's name, for errors.
    public var name: String {
        switch self {
        case .proof: "proof"
        case .accepted: "accepted"
        case .begin: "begin"
        case .data: "data"
        case .end: "end"
        case .done: "done"
        case .refused: "refused"
        }
    }
}
