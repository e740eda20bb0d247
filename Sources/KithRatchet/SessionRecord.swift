import KithCanonical

/// Everything kept about the direct session with one contact: the current session, which sends,
/// and a few archived sessions that can still receive.
///
/// Archived sessions exist because a feed delivers every message of a chain, including the
/// messages of a session that lost the simultaneous-initiation tie-break (docs/FEED-FORMAT.md section 12
/// section 6) or that the peer replaced by starting over: those messages must stay readable.
/// Receiving tries the current session first, then the archived ones; only the current one sends.
///
/// Wire (stored sealed by the caller):
/// `version u8 = 0x01 | count u8 (1 ... 1 + maxArchived) | count x (length u32 | session (RatchetSessionCodec))`,
/// the current session first.
public struct SessionRecord: Sendable, Equatable {
    /// Format version.
    public static let version: UInt8 = 0x01
    /// Most archived sessions kept (oldest dropped first).
    public static let maxArchived = 3
    /// Largest encoding accepted.
    public static let maxEncodedSize = 2 + (1 + maxArchived) * (4 + RatchetSessionCodec.maxEncodedSize)

    /// The session that sends.
    public private(set) var current: RatchetSession
    /// Older sessions that may still receive, newest first.
    public private(set) var archived: [RatchetSession]

    /// Creates a record.
    public init(current: RatchetSession, archived: [RatchetSession] = []) {
        self.current = current
        self.archived = Array(archived.prefix(Self.maxArchived))
    }

    /// The record with every session encapsulating to `pqKey` from now on: the contact's
    /// current ML-KEM key after they rotated their keys (spec 5.5).
    public func updatingPeerPQKey(_ pqKey: [UInt8]) -> SessionRecord {
        var next = self
        next.current.peerPQKey = pqKey
        for index in next.archived.indices { next.archived[index].peerPQKey = pqKey }
        return next
    }

    // MARK: Sending

    /// Encrypts with the current session (see ``RatchetSession/encrypt(_:context:entropy:)``);
    /// returns the wire and the record to persist.
    public func encrypt(
        _ plaintext: [UInt8], context: DirectMessageContext, entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> (wire: [UInt8], record: SessionRecord) {
        let (wire, session) = try current.encrypt(plaintext, context: context, entropy: entropy)
        var next = self
        next.current = session
        return (wire, next)
    }

    // MARK: Receiving

    /// What ``receive(_:record:context:local:peer:prekeys:now:entropy:)`` produced.
    public struct Received: Sendable {
        /// The plaintext.
        public let plaintext: [UInt8]
        /// The record to persist.
        public let record: SessionRecord
        /// The one-time prekey a new session used (delete it now).
        public let consumedOneTimePrekey: UInt32?
    }

    /// Decrypts one message from the peer, starting a responder session for a new prekey message.
    ///
    /// - A prekey message for a known responder session (same base key) is decrypted by it.
    /// - Another prekey message starts a session with ``RatchetSession/respond(local:peer:prekeys:wire:context:configuration:now:entropy:)``.
    ///   If the current session is our own initiation still awaiting a reply and it wins the
    ///   tie-break, the new session is archived (it only reads); otherwise it becomes current
    ///   and the previous current one is archived.
    /// - Any other message is tried with the current session, then the archived ones.
    ///
    /// Nothing is changed on error (the caller keeps its stored record).
    public static func receive(
        _ wire: [UInt8], record: SessionRecord?, context: DirectMessageContext, local: LocalIdentityKeys, peer: PeerIdentity,
        prekeys: some PrekeyStore, now: UInt64, entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> Received {
        let (parsed, _) = try DirectMessageWire.decode(wire)
        let sessions = record.map { [$0.current] + $0.archived } ?? []
        if let prelude = parsed.prelude,
           sessions.allSatisfy({ !($0.role == .responder && ConstantTime.equals($0.baseKey, prelude.initiatorEphemeral)) }) {
            let (session, plaintext) = try RatchetSession.respond(
                local: local, peer: peer, prekeys: prekeys, wire: wire, context: context, now: now, entropy: entropy
            )
            let updated: SessionRecord
            if let record {
                if record.current.isAwaitingReply, !record.current.yieldsToIncomingInitiation {
                    updated = SessionRecord(current: record.current, archived: [session] + record.archived)
                } else {
                    updated = SessionRecord(current: session, archived: [record.current] + record.archived)
                }
            } else {
                updated = SessionRecord(current: session)
            }
            return Received(plaintext: plaintext, record: updated, consumedOneTimePrekey: prelude.oneTimePrekeyID)
        }
        guard !sessions.isEmpty else { throw .malformed("no session with this contact yet, and this is not a prekey message") }
        var firstError: RatchetError?
        for (index, session) in sessions.enumerated() {
            do throws(RatchetError) {
                let (plaintext, next) = try session.decrypt(wire, context: context, local: local, now: now, entropy: entropy)
                var all = sessions
                all[index] = next
                return Received(plaintext: plaintext, record: SessionRecord(current: all[0], archived: Array(all.dropFirst())), consumedOneTimePrekey: nil)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? .authenticationFailed
    }

    // MARK: Codec

    /// The stored form.
    public var encoded: [UInt8] {
        let all = [current] + archived
        var writer = ByteWriter()
        writer.write(Self.version)
        writer.write(UInt8(all.count))
        for session in all {
            let bytes = RatchetSessionCodec.encode(session)
            writer.write(UInt32(bytes.count))
            writer.write(bytes: bytes)
        }
        return writer.bytes
    }

    /// Parses a stored record (bounded; every session checked by ``RatchetSessionCodec``).
    public static func decode(_ bytes: [UInt8]) throws(RatchetError) -> SessionRecord {
        guard bytes.count <= maxEncodedSize else { throw .malformed("session record of \(bytes.count) bytes exceeds \(maxEncodedSize)") }
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == Self.version else { throw RatchetError.unsupportedSessionVersion(version) }
            let count = Int(try reader.readUInt8())
            guard (1...(1 + maxArchived)).contains(count) else { throw RatchetError.malformed("session record holds \(count) sessions") }
            var sessions: [RatchetSession] = []
            for _ in 0..<count {
                let length = Int(try reader.readUInt32())
                guard length <= RatchetSessionCodec.maxEncodedSize, length <= reader.remaining else {
                    throw RatchetError.malformed("session of \(length) bytes in a record")
                }
                sessions.append(try RatchetSessionCodec.decode(try reader.readBytes(length)))
            }
            try reader.expectEnd()
            return SessionRecord(current: sessions[0], archived: Array(sessions.dropFirst()))
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .malformed("session record: \(error)")
        }
    }
}
