import KithCanonical
import KithContinuity

/// One message of a recovery release through the relay, before the channel seals it: `kind u8 | body`.
///
/// | kind | message | from | body |
/// |---|---|---|---|
/// | `0x01` | request | new device | the encoded `RecoveryRequest` |
/// | `0x02` | release | guardian | the encoded `RecoveryRelease` (at most `RecoveryLimits.maxEncodedReleaseBytes`) |
/// | `0x03` | declined | guardian | empty: the safety codes differed, or nothing to release |
/// | `0x04` | accepted | new device | empty: the release opened and was kept |
/// | `0x05` | refused | new device | empty: the release was refused (does not open, replayed, another set) |
public enum RecoveryRelayMessage: Sendable, Equatable {
    /// The new device's request.
    case request(RecoveryRequest)
    /// The guardian's release, sealed to the request.
    case release(RecoveryRelease)
    /// The guardian sends nothing.
    case declined
    /// The new device kept the release.
    case accepted
    /// The new device refused the release.
    case refused

    static let requestKind: UInt8 = 0x01
    static let releaseKind: UInt8 = 0x02
    static let declinedKind: UInt8 = 0x03
    static let acceptedKind: UInt8 = 0x04
    static let refusedKind: UInt8 = 0x05

    /// The plaintext bytes.
    public var encoded: [UInt8] {
        switch self {
        case .request(let request): [Self.requestKind] + request.encoded
        case .release(let release): [Self.releaseKind] + release.encoded
        case .declined: [Self.declinedKind]
        case .accepted: [Self.acceptedKind]
        case .refused: [Self.refusedKind]
        }
    }

    /// Reads an opened message; the request and release decoders check their own bounds before reading.
    /// - Throws: ``RecoveryRelayError/malformedMessage(_:)`` for an empty message, an unknown kind, a body on an
    ///   empty kind, or a request or release that does not decode.
    public init(decoding bytes: [UInt8]) throws(RecoveryRelayError) {
        var reader = ByteReader(bytes)
        guard let kind = try? reader.readUInt8() else { throw .malformedMessage("empty message") }
        let body = reader.readRemaining()
        switch kind {
        case Self.requestKind:
            do throws(RecoveryError) { self = .request(try RecoveryRequest(encoded: body)) } catch { throw .malformedMessage(error.description) }
        case Self.releaseKind:
            do throws(RecoveryError) { self = .release(try RecoveryRelease(encoded: body)) } catch { throw .malformedMessage(error.description) }
        case Self.declinedKind, Self.acceptedKind, Self.refusedKind:
            guard body.isEmpty else { throw .malformedMessage("kind \(kind) carries \(body.count) bytes") }
            self = kind == Self.declinedKind ? .declined : kind == Self.acceptedKind ? .accepted : .refused
        default:
            throw .malformedMessage("unknown kind \(kind)")
        }
    }

    /// The message's name, for errors.
    var name: String {
        switch self {
        case .request: "a request"
        case .release: "a release"
        case .declined: "a decline"
        case .accepted: "an acceptance"
        case .refused: "a refusal"
        }
    }
}
