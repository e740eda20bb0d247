import Crypto
import Foundation
import KithContinuity
import KithIdentity
import KithSync
import Synchronization

/// The new device's half of moving to a new device in person (docs/CONTINUITY.md, section 7).
///
///     let receiver = try await MoveReceiver.listen(home: newHome)
///     show(receiver.code.text)                       // text and QR for the old device
///     let (account, report) = try await receiver.receive(passphrase: { newPassphrase })
///
/// The receiver listens on one TCP address with a fresh Noise static key and a fresh 256-bit secret, both in the
/// code and nowhere else. It takes exactly one sender: the first that completes the IK handshake (pinned to this
/// key) ends the listening, whether its proof of the secret is right or not. It writes nothing into the home until
/// the whole stream has arrived and verified; on any failure before it answers `done` the home is left empty.
public final class MoveReceiver: Sendable {
    /// The one-time code to show.
    public let code: MoveCode
    /// The new home (empty or absent).
    public let home: AccountHome
    private let listener: TCPSyncListener
    private let staticKey: Curve25519.KeyAgreement.PrivateKey
    private let state = MoveReceiverState()

    private init(code: MoveCode, home: AccountHome, listener: TCPSyncListener, staticKey: Curve25519.KeyAgreement.PrivateKey) {
        self.code = code
        self.home = home
        self.listener = listener
        self.staticKey = staticKey
    }

    /// Starts listening for one sender.
    /// - Parameters:
    ///   - home: The new home; it must be empty or absent.
    ///   - host: The address to bind (127.0.0.1 by default; "0.0.0.0" for the local network, then give `advertisedHost`).
    ///   - port: The TCP port; 0 picks a free one.
    ///   - advertisedHost: The address the code names when it differs from `host`.
    public static func listen(
        home: AccountHome, host: String = "127.0.0.1", port: Int = 0, advertisedHost: String? = nil
    ) async throws(KithError) -> MoveReceiver {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: home.directory.path), !entries.isEmpty {
            throw .continuity(.homeNotEmpty(path: home.directory.path))
        }
        let shown = advertisedHost ?? host
        guard !["0.0.0.0", "::", "[::]"].contains(shown) else {
            throw .input(.invalid("listening on every address: name the address the old device can reach (--advertise ADDRESS)"))
        }
        let listener: TCPSyncListener
        do throws(SyncTransportError) {
            listener = try await TCPSyncListener.bind(host: host, port: port, idleTimeout: MoveLimits.idleTimeoutSeconds)
        } catch {
            throw .sync(.transport(error))
        }
        let key = Curve25519.KeyAgreement.PrivateKey()
        let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        do throws(MoveError) {
            let code = try MoveCode(host: shown, port: listener.port, receiverStaticKey: Array(key.publicKey.rawRepresentation), secret: secret)
            return MoveReceiver(code: code, home: home, listener: listener, staticKey: key)
        } catch {
            await listener.close()
            throw .continuity(.move(error))
        }
    }

    /// Waits for the sender, checks its proof of the code, receives the stream, restores it into the home (the
    /// same verification and import as `Account.restore(from:…)`), publishes a `device_migration` key rotation and
    /// answers `done`. Call once.
    /// - Parameters:
    ///   - scrypt: The cost of the new vault's passphrase key.
    ///   - passphrase: The new vault's passphrase (asked before showing the code, so the transfer does not wait).
    ///   - expectedFeedID: When given, another identity is refused.
    ///   - waitSeconds: How long to wait for a sender.
    ///   - onConfirmation: Called with the six digits to compare with the old device's screen.
    ///   - progress: Called while the stream arrives and is restored.
    ///   - clock: Seconds since 1970, for the account.
    public func receive(
        scrypt: ScryptParameters = .interactive, passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        expectedFeedID: FeedID? = nil, waitSeconds: Double = MoveLimits.defaultWaitSeconds,
        onConfirmation: (@Sendable (String) -> Void)? = nil, progress: MoveProgress? = nil,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> (account: Account, report: MoveReceiveReport) {
        let state = state
        let configuration = SecureLinkConfiguration(localStatic: staticKey, acceptedPatterns: [.ik], isAllowed: { _ in true })
        let listener = listener
        let timer = Task {
            try? await Task.sleep(for: .seconds(waitSeconds))
            if !Task.isCancelled, !state.started.withLock({ $0 }) { await listener.close() }
        }
        let step = MoveReceiveStep(
            code: code, home: home, scrypt: scrypt, passphrase: passphrase, expectedFeedID: expectedFeedID,
            onConfirmation: onConfirmation, progress: progress, clock: clock)
        await TCPSyncServer(maximumConcurrentSessions: 1).serve(
            listener, sessionLimit: 1,
            handshake: { transport throws(SecureLinkError) in try await SecureLink.accept(over: transport, configuration: configuration) },
            session: { link in
                state.started.withLock { $0 = true }
                let result: Result<(account: Account, report: MoveReceiveReport), KithError>
                do throws(KithError) { result = .success(try await step.run(over: MoveChannel(link: link))) } catch { result = .failure(error) }
                await link.close()
                state.outcome.withLock { $0 = result }
            })
        timer.cancel()
        await listener.close()
        guard let result = state.outcome.withLock({ $0 }) else {
            throw .continuity(.move(.timedOut("no old device connected with this code")))
        }
        return try result.get()
    }

    /// Stops waiting (a `receive` under way returns `timedOut` unless a sender is already connected).
    public func cancel() async { await listener.close() }
}

/// What a receiver's tasks share: whether a sender's session began, and its outcome.
private final class MoveReceiverState: Sendable {
    let started = Mutex(false)
    let outcome = Mutex<Result<(account: Account, report: MoveReceiveReport), KithError>?>(nil)
}
