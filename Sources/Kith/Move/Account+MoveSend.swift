import Crypto
import Foundation
import KithContinuity
import KithSync

/// `Account.moveSend(to:…)`: the old device's half of moving to a new device in person (docs/CONTINUITY.md,
/// section 7).
extension Account {
    /// Hands this identity to the device that shows `code`, then stops this home.
    ///
    /// Dials the code's address, runs Noise IK pinned to the code's receiver key (only that device can finish the
    /// handshake), proves the code's secret, then streams a backup container (every record a backup carries, blobs
    /// included) sealed under a key derived from the code and this link. Only after the new device answers `done`
    /// (it verified and restored everything and published a `device_migration` key rotation signed by the old key)
    /// does this home stop: `moved.json` is written and the vault, the rotated key seeds, the database and the
    /// personas are removed; this `Account` must not be used afterwards. If anything fails before `done`, this home
    /// is unchanged. Personas are not carried (docs/CONTINUITY.md section 7, "Personas"): a home that holds any is
    /// refused unless `endingPersonas` says their conversations may end.
    ///
    /// - Parameters:
    ///   - code: The code the new device shows.
    ///   - endingPersonas: True to move even though this home's personas (and their conversations) end with it.
    ///   - onConfirmation: Called with the six digits to compare with the new device's screen, once the link is up.
    ///   - progress: Called while the stream is prepared and sent.
    /// - Throws: `ContinuityError.personasNotCarried` when personas exist and `endingPersonas` is false (nothing is
    ///   sent).
    public func moveSend(
        to code: MoveCode, endingPersonas: Bool = false, onConfirmation: (@Sendable (String) -> Void)? = nil, progress: MoveProgress? = nil
    ) async throws(KithError) -> MoveSendReport {
        try await refuseIfPersonasWouldEnd(endingPersonas)
        guard case .direct(let host, let port) = code.route else {
            throw .input(.invalid("this move code goes through a rendezvous server: join its room and call moveSend(to:over:) (the CLI: kith move send CODE --server URL)"))
        }
        return try await handingOver(code: code, onConfirmation: onConfirmation, progress: progress) { () async throws(KithError) -> any SyncTransport in
            do throws(SyncTransportError) {
                return try await TCPTransport.connect(host: host, port: port, idleTimeout: MoveLimits.idleTimeoutSeconds)
            } catch {
                throw .sync(.transport(error))
            }
        }
    }

    /// Hands this identity over `transport` (for a relay code: the relay of the room both devices joined) instead of
    /// dialing the code's address: the same pinned handshake, proof, stream and retirement as
    /// `moveSend(to:endingPersonas:onConfirmation:progress:)`, with the same refusal when personas would end. The
    /// link over `transport` is closed at the end.
    public func moveSend(
        to code: MoveCode, over transport: any SyncTransport, endingPersonas: Bool = false, onConfirmation: (@Sendable (String) -> Void)? = nil,
        progress: MoveProgress? = nil
    ) async throws(KithError) -> MoveSendReport {
        try await refuseIfPersonasWouldEnd(endingPersonas)
        return try await handingOver(code: code, onConfirmation: onConfirmation, progress: progress) { () async throws(KithError) -> any SyncTransport in
            transport
        }
    }

    /// Throws `personasNotCarried` when this home holds personas and the caller did not accept that they end (a
    /// damaged persona index is reported as such: `kith personas` says more).
    private func refuseIfPersonasWouldEnd(_ endingPersonas: Bool) async throws(KithError) {
        guard !endingPersonas, home != nil else { return }
        let count = try await personas.all().count
        if count > 0 { throw .continuity(.personasNotCarried(count: count)) }
    }

    /// Claims the account, hands over through the transport `connect` gives and retires the home on `done`.
    private func handingOver(
        code: MoveCode, onConfirmation: (@Sendable (String) -> Void)?, progress: MoveProgress?,
        connect: () async throws(KithError) -> any SyncTransport
    ) async throws(KithError) -> MoveSendReport {
        guard let home else { throw .input(.invalid("only an account with a home directory can move to another device")) }
        try beginHandover()
        do throws(KithError) {
            let transport = try await connect()
            let report = try await handOver(home: home, code: code, transport: transport, onConfirmation: onConfirmation, progress: progress)
            moveState.withLock { $0 = .movedAway(confirmation: report.confirmation, movedAt: clock()) }
            return report
        } catch {
            // The marker is written first once `done` arrived: then the keys are gone whatever failed after it.
            let moved = FileManager.default.fileExists(atPath: home.movedMarkerURL.path)
            moveState.withLock { $0 = moved ? .movedAway(confirmation: "?", movedAt: clock()) : .idle }
            throw error
        }
    }

    /// Hands over through `transport` and retires the home (the account is claimed by `beginHandover`).
    private func handOver(
        home: AccountHome, code: MoveCode, transport: any SyncTransport, onConfirmation: (@Sendable (String) -> Void)?, progress: MoveProgress?
    ) async throws(KithError) -> MoveSendReport {
        let pinned = code.receiverStaticKey
        let configuration = SecureLinkConfiguration(
            localStatic: Curve25519.KeyAgreement.PrivateKey(), acceptedPatterns: [.ik],
            isAllowed: { key in key.count == pinned.count && key == pinned })
        let link = try await Self.handshake(transport, configuration: configuration, pinned: pinned)
        let report: MoveSendReport
        do throws(KithError) { report = try await moveSend(home: home, code: code, over: MoveChannel(link: link), onConfirmation: onConfirmation, progress: progress) } catch {
            await link.close()
            throw error
        }
        await link.close()
        return report
    }

    private func moveSend(
        home: AccountHome, code: MoveCode, over channel: MoveChannel, onConfirmation: (@Sendable (String) -> Void)?, progress: MoveProgress?
    ) async throws(KithError) -> MoveSendReport {
        let link = channel.link
        let keys = MoveKeys(secret: code.secret, handshakeHash: link.handshakeHash)
        try await channel.send(.proof(keys.proof))
        let answer = try await channel.receiveUnlessRefused()
        guard answer == .accepted else { throw .continuity(.move(.protocolViolation("expected accepted, got \(answer.name)"))) }
        onConfirmation?(keys.confirmation)

        let staging = home.directory.appendingPathComponent("move-outgoing.kithbackup")
        defer { try? FileManager.default.removeItem(at: staging) }
        let streamBytes: UInt64
        let preparing: BackupProgress? = progress.map { report -> BackupProgress in { done, total in report(.preparing, done, total) } }
        let streamKey = keys.streamKey
        do throws(KithError) {
            let summary = try await BlockingWork.run { () throws(KithError) -> BackupSummary in
                try self.backupBlocking(
                    to: staging, secret: .recoveryKey(streamKey), options: BackupOptions(includeBlobs: true), progress: preparing)
            }
            streamBytes = summary.fileBytes
            try await sendStream(staging, bytes: streamBytes, over: channel, progress: progress)
        } catch {
            await channel.refuse("the old device could not send its data")
            throw error
        }
        let reply = try await channel.receiveUnlessRefused()
        guard case .done(let head) = reply else { throw .continuity(.move(.protocolViolation("expected done, got \(reply.name)"))) }
        try await BlockingWork.run { () throws(KithError) in
            try self.retireAfterMove(home: home, confirmation: keys.confirmation, newHead: head)
        }
        return MoveSendReport(confirmation: keys.confirmation, streamBytes: streamBytes, newDeviceHead: head)
    }

    /// The IK handshake under `MoveLimits.handshakeTimeoutSeconds` (closing the transport ends a stalled one).
    private static func handshake(
        _ transport: any SyncTransport, configuration: SecureLinkConfiguration, pinned: [UInt8]
    ) async throws(KithError) -> SecureLink {
        let timer = Task {
            try? await Task.sleep(for: .seconds(MoveLimits.handshakeTimeoutSeconds))
            if !Task.isCancelled { await transport.close() }
        }
        defer { timer.cancel() }
        do throws(SecureLinkError) {
            return try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: pinned)
        } catch {
            throw .sync(.link(error))
        }
    }

    /// Sends `begin`, the file's bytes in data messages, and `end`.
    private func sendStream(_ url: URL, bytes total: UInt64, over channel: MoveChannel, progress: MoveProgress?) async throws(KithError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw .fileSystem(path: url.path, reason: "cannot read the move stream") }
        defer { try? handle.close() }
        try await channel.send(.begin(totalBytes: total))
        var sent: UInt64 = 0
        var reported: UInt64 = 0
        while true {
            let piece: [UInt8]
            do { piece = try handle.read(upToCount: channel.dataCapacity).map { Array($0) } ?? [] } catch {
                throw .fileSystem(path: url.path, reason: "cannot read the move stream: \(error.localizedDescription)")
            }
            if piece.isEmpty { break }
            try await channel.send(.data(piece))
            sent += UInt64(piece.count)
            if sent - reported >= 1 << 20 || sent == total {
                reported = sent
                progress?(.transferring, sent, total)
            }
        }
        guard sent == total else { throw .fileSystem(path: url.path, reason: "the move stream changed while it was sent") }
        try await channel.send(.end)
    }
}
