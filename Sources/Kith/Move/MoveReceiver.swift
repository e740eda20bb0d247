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
    private let listener: TCPSyncListener?
    private let staticKey: Curve25519.KeyAgreement.PrivateKey
    private let state = MoveReceiverState()

    private init(code: MoveCode, home: AccountHome, listener: TCPSyncListener?, staticKey: Curve25519.KeyAgreement.PrivateKey) {
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
        try requireEmptyHome(home)
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
        let (key, secret) = freshKeys()
        do throws(MoveError) {
            let code = try MoveCode(host: shown, port: listener.port, receiverStaticKey: Array(key.publicKey.rawRepresentation), secret: secret)
            return MoveReceiver(code: code, home: home, listener: listener, staticKey: key)
        } catch {
            await listener.close()
            throw .continuity(.move(error))
        }
    }

    /// Prepares a receiver that meets its sender in a room of a rendezvous server instead of listening: the code
    /// carries `joinCode` (the room's, offered by the caller) and the server's URL with a fresh static key and
    /// secret. Run it with `receive(over:…)` once the relay is open; the relay sees only the Noise handshake and
    /// ciphertext.
    /// - Parameters:
    ///   - home: The new home; it must be empty or absent.
    ///   - joinCode: The join code of the room (6...64 of `A-Z a-z 0-9 - _`).
    ///   - server: The rendezvous server's URL as this device reached it (`http://` or `https://`, at most 200
    ///     bytes), so the old device needs only the code; nil leaves it out (both devices then name the server).
    public static func relayed(home: AccountHome, joinCode: String, server: String? = nil) throws(KithError) -> MoveReceiver {
        try requireEmptyHome(home)
        let (key, secret) = freshKeys()
        do throws(MoveError) {
            let code = try MoveCode(
                relayJoinCode: joinCode, server: server, receiverStaticKey: Array(key.publicKey.rawRepresentation), secret: secret)
            return MoveReceiver(code: code, home: home, listener: nil, staticKey: key)
        } catch {
            throw .continuity(.move(error))
        }
    }

    /// Refuses a home that is not empty (checked again when a receiver is made; lets a caller fail before it
    /// reserves anything, such as a relay room).
    public static func requireEmptyHome(_ home: AccountHome) throws(KithError) {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: home.directory.path), !entries.isEmpty {
            throw .continuity(.homeNotEmpty(path: home.directory.path))
        }
    }

    private static func freshKeys() -> (Curve25519.KeyAgreement.PrivateKey, [UInt8]) {
        (Curve25519.KeyAgreement.PrivateKey(), SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
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
        guard let listener else {
            throw .input(.invalid("this receiver meets its sender through a relay: run it with receive(over:)"))
        }
        let state = state
        let configuration = linkConfiguration
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

    /// Runs the receiving side over `transport` (a relay the sender joined): answers its IK handshake (within
    /// `MoveLimits.handshakeTimeoutSeconds`), then does what `receive(scrypt:passphrase:…)` does after a sender
    /// connected. Takes one sender: a second call fails. The transport is closed at the end.
    /// - Parameters: as `receive(scrypt:passphrase:…)`, with the transport instead of the wait.
    public func receive(
        over transport: any SyncTransport, scrypt: ScryptParameters = .interactive,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String, expectedFeedID: FeedID? = nil,
        onConfirmation: (@Sendable (String) -> Void)? = nil, progress: MoveProgress? = nil,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> (account: Account, report: MoveReceiveReport) {
        guard !state.started.withLock({ started in defer { started = true }; return started }) else {
            throw .continuity(.move(.protocolViolation("this receiver already took a sender")))
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(MoveLimits.handshakeTimeoutSeconds))
            if !Task.isCancelled { await transport.close() }
        }
        let link: SecureLink
        do throws(SecureLinkError) {
            link = try await SecureLink.accept(over: transport, configuration: linkConfiguration)
            timer.cancel()
        } catch {
            timer.cancel()
            await transport.close()
            throw .sync(.link(error))
        }
        let step = MoveReceiveStep(
            code: code, home: home, scrypt: scrypt, passphrase: passphrase, expectedFeedID: expectedFeedID,
            onConfirmation: onConfirmation, progress: progress, clock: clock)
        let result: Result<(account: Account, report: MoveReceiveReport), KithError>
        do throws(KithError) { result = .success(try await step.run(over: MoveChannel(link: link))) } catch { result = .failure(error) }
        await link.close()
        return try result.get()
    }

    /// The receiver's side of the link: IK only, any sender (the proof of the secret decides).
    private var linkConfiguration: SecureLinkConfiguration {
        SecureLinkConfiguration(localStatic: staticKey, acceptedPatterns: [.ik], isAllowed: { _ in true })
    }

    /// Stops waiting (a `receive` under way returns `timedOut` unless a sender is already connected).
    public func cancel() async { await listener?.close() }
}

/// What a receiver's tasks share: whether a sender's session began, and its outcome.
private final class MoveReceiverState: Sendable {
    let started = Mutex(false)
    let outcome = Mutex<Result<(account: Account, report: MoveReceiveReport), KithError>?>(nil)
}
