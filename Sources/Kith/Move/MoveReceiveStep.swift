import Foundation
import KithContinuity
import KithIdentity
import KithStore

/// One sender's session on the receiving device: proof, stream, restore, rotation, `done`
/// (docs/CONTINUITY.md, section 7).
struct MoveReceiveStep: Sendable {
    let code: MoveCode
    let home: AccountHome
    let scrypt: ScryptParameters
    let passphrase: @Sendable () throws(IdentityError) -> String
    let expectedFeedID: FeedID?
    let onConfirmation: (@Sendable (String) -> Void)?
    let progress: MoveProgress?
    let clock: @Sendable () -> Int64

    /// The sealed stream waits beside the home (the home must stay empty for the restore): `.<home name>.move-incoming`.
    var stagingURL: URL {
        home.directory.deletingLastPathComponent().appendingPathComponent(".\(home.directory.lastPathComponent).move-incoming")
    }

    func run(over channel: MoveChannel) async throws(KithError) -> (account: Account, report: MoveReceiveReport) {
        let keys = MoveKeys(secret: code.secret, handshakeHash: channel.link.handshakeHash)
        let first = try await channel.receive()
        guard case .proof(let proof) = first else {
            await channel.refuse("expected the proof of the code")
            throw .continuity(.move(.protocolViolation("expected proof, got \(first.name)")))
        }
        guard keys.accepts(proof: proof) else {
            await channel.refuse("wrong move code")
            throw .continuity(.move(.wrongCode))
        }
        try await channel.send(.accepted)
        onConfirmation?(keys.confirmation)
        let staging = stagingURL
        defer { try? FileManager.default.removeItem(at: staging) }
        do throws(KithError) {
            let streamBytes = try await receiveStream(into: staging, over: channel)
            let restoreProgress = progress.map { report -> BackupProgress in { done, total in report(.restoring, done, total) } }
            let (account, restored) = try await BlockingWork.run { () throws(KithError) in
                try Account.restoreBlocking(
                    from: staging, secret: .recoveryKey(keys.streamKey), home: home, expectedFeedID: expectedFeedID, scrypt: scrypt,
                    passphrase: passphrase, progress: restoreProgress, clock: clock)
            }
            let head: UInt64
            do throws(KithError) {
                try await account.rotation.rotate(reason: .deviceMigration)
                do throws(StoreError) { head = UInt64(try account.store.head(of: account.feedID)?.sequence ?? 0) } catch { throw KithError.store(error) }
                try await channel.send(.done(ownHead: head))
            } catch {
                // The old device was not told: it keeps the identity, so this one must not.
                emptyHome()
                throw error
            }
            return (account, MoveReceiveReport(confirmation: keys.confirmation, streamBytes: streamBytes, restore: restored, ownHead: head))
        } catch {
            await channel.refuse("the new device could not take the data: \(error.description.prefix(120))")
            throw error
        }
    }

    /// Writes the announced stream into `url` (mode 0600), refusing more or fewer bytes than announced.
    private func receiveStream(into url: URL, over channel: MoveChannel) async throws(KithError) -> UInt64 {
        let first = try await channel.receiveUnlessRefused()
        guard case .begin(let total) = first else { throw .continuity(.move(.protocolViolation("expected begin, got \(first.name)"))) }
        try? FileManager.default.removeItem(at: url)
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = try? FileHandle(forWritingTo: url)
        else { throw .fileSystem(path: url.path, reason: "cannot create the incoming move stream") }
        defer { try? handle.close() }
        var received: UInt64 = 0
        var reported: UInt64 = 0
        while true {
            let message = try await channel.receiveUnlessRefused()
            switch message {
            case .data(let bytes):
                received += UInt64(bytes.count)
                guard received <= total else { throw .continuity(.move(.oversize("the stream carried more than the \(total) bytes it announced"))) }
                do { try handle.write(contentsOf: bytes) } catch {
                    throw .fileSystem(path: url.path, reason: "cannot write the incoming move stream: \(error.localizedDescription)")
                }
                if received - reported >= 1 << 20 || received == total {
                    reported = received
                    progress?(.transferring, received, total)
                }
            case .end:
                guard received == total else {
                    throw .continuity(.move(.protocolViolation("the stream ended after \(received) of the \(total) bytes it announced")))
                }
                return received
            default:
                throw .continuity(.move(.protocolViolation("expected data or end, got \(message.name)")))
            }
        }
    }

    /// Removes everything in the home (after a restore whose `done` could not be given).
    private func emptyHome() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: home.directory.path) else { return }
        for entry in entries { try? FileManager.default.removeItem(at: home.directory.appendingPathComponent(entry)) }
    }
}
