import Crypto
import KithCanonical
import KithIdentity
import KithStore
import KithSync

/// Runs sync sessions for one account: the glue `kith sync`, `kith sync nearby` and the demo share.
///
/// The Noise static key is the identity's X25519 `dh_key` (its previous one during a rotation's grace:
/// ``syncStatics()``); the allow-list is "a contact's current
/// `dh_key`, a group peer's while it shares an active group, or a scanned compact card's"
/// (``StoreSyncSource/isSyncPeer(staticKey:)``); the blob phase is on unless ``blobs`` is false, in
/// which case the `blobs` capability is left out of the Hello and neither side transfers blobs.
/// With `SyncCapabilities.cardPhase` negotiated, a side that scanned the peer's compact card first
/// gets the full card it commits to and completes the contact (`CardExchange`, docs/FEED-FORMAT.md
/// 11.9); with `SyncCapabilities.sidePhase` (both sides are Kith agents), the inner circle's pool
/// exchange runs next on the same link (`CircleExchange`, docs/TDF.md). A contact peer is then offered a KeyPackage
/// when one is due (``Account/Groups/offerKeyPackageIfDue(to:)``), so it can add this identity to groups after this
/// session. Every finished session is recorded per peer (`sync_peer_state`), and the direct
/// and one-time messages it brought are decrypted (``Account/Direct/process()``,
/// ``Account/Circle/process()``).
public struct SyncAgent: Sendable {
    /// The account.
    public let account: Account
    /// Its store as a sync and blob source.
    public let source: StoreSyncSource
    /// Whether blobs are exchanged after the envelopes.
    public var blobs: Bool
    /// Largest blob asked for or served.
    public var maximumBlobLength: Int

    /// Creates an agent; `blobs: false` skips the blob phase (`--no-blobs`).
    public init(account: Account, blobs: Bool = true, maximumBlobLength: Int = SyncLimits.defaultMaximumBlobLength) {
        self.account = account
        self.source = account.makeSyncSource()
        self.blobs = blobs
        self.maximumBlobLength = maximumBlobLength
    }

    /// The link configuration: this identity's `dh_key` (its previous one during the rotation grace, with the
    /// current one as the IK alternate: ``syncStatics()``), contacts and group peers only, capabilities per ``blobs``.
    public func linkConfiguration() async -> SecureLinkConfiguration {
        let source = source
        var capabilities = SyncCapabilities.supported
        capabilities.insert(.sidePhase)
        capabilities.insert(.cardPhase)
        if !blobs { capabilities.remove(.blobs) }
        let statics = await syncStatics()
        return SecureLinkConfiguration(
            localStatic: statics.local, hello: SyncHello(capabilities: capabilities), alternateStatic: statics.alternate
        ) {
            await source.isSyncPeer(staticKey: $0)
        }
    }

    /// The Noise static keys for sync (docs/sync.md, "After a key rotation"): while the grace of this identity's
    /// latest rotation is open (``RotationSyncGrace``: verified, not `key_compromise`, younger than
    /// ``Account/rotationSyncGrace`` by the account clock), the previous dh key is presented, so contacts who have
    /// not seen the rotation yet accept it, and IK addressed to the current key is answered too; otherwise (and when
    /// the rotations cannot be read) the current dh key only.
    public func syncStatics() async -> (local: Curve25519.KeyAgreement.PrivateKey, alternate: Curve25519.KeyAgreement.PrivateKey?) {
        let identity = account.identity
        guard let previous = identity.previousDHKey else { return (identity.dhKey, nil) }
        let store = account.store
        let feed = identity.feedID
        let now = account.clock()
        let open = await BlockingWork.run { () throws(Never) -> Bool in
            guard let rotations = try? store.keyRotations(feed: feed) else { return false }
            return RotationSyncGrace.isOpen(after: rotations, nowSeconds: now)
        }
        return open ? (previous, identity.dhKey) : (identity.dhKey, nil)
    }

    /// A contact's Noise static key (their current `dh_key`, 32 bytes), for IK.
    public static func staticKey(of contact: ContactRecord) -> [UInt8]? {
        guard let key = try? Base64URL.decode(contact.dhKey), key.count == 32 else { return nil }
        return key
    }

    /// Dials and initiates: IK with XX fallback when `contact` is given, XX otherwise.
    public func initiate(
        dialing dial: @escaping @Sendable () async throws(SyncTransportError) -> any SyncTransport,
        contact: ContactRecord? = nil
    ) async throws(SecureLinkError) -> SecureLink {
        try await SecureLink.connect(dialing: dial, configuration: await linkConfiguration(), responderStaticKey: contact.flatMap(Self.staticKey(of:)))
    }

    /// Initiates over an open transport (XX, or IK when `contact` is given; no fallback).
    public func initiate(over transport: any SyncTransport, contact: ContactRecord? = nil) async throws(SecureLinkError) -> SecureLink {
        try await SecureLink.connect(over: transport, configuration: await linkConfiguration(), responderStaticKey: contact.flatMap(Self.staticKey(of:)))
    }

    /// Responds over an open transport.
    public func accept(over transport: any SyncTransport) async throws(SecureLinkError) -> SecureLink {
        try await SecureLink.accept(over: transport, configuration: await linkConfiguration())
    }

    /// Serves contacts that dial `listener` (`kith sync listen`), through `server`: concurrent
    /// handshakes under a deadline, bounded per source, so a slow or flooding client cannot keep a
    /// contact out (docs/sync.md, section 10).
    /// - Parameters:
    ///   - listener: the bound TCP listener whose connections are served.
    ///   - server: the limits (handshake deadline, pending handshakes per source, concurrent sessions).
    ///   - sessionLimit: stop (close the listener) after this many sessions; nil: until it closes.
    ///   - onEvent: told about every connection that did not become a session.
    ///   - session: runs a session over an authenticated link; by default ``run(link:clock:observer:)``.
    public func serve(
        listener: TCPSyncListener,
        server: TCPSyncServer = TCPSyncServer(),
        sessionLimit: Int? = nil,
        onEvent: @escaping @Sendable (TCPSyncServerEvent) -> Void = { _ in },
        session: (@Sendable (SecureLink) async -> Void)? = nil
    ) async {
        let agent = self
        await server.serve(
            listener,
            sessionLimit: sessionLimit,
            handshake: { transport throws(SecureLinkError) in try await agent.accept(over: transport) },
            onEvent: onEvent,
            session: session ?? { link in _ = await agent.run(link: link) }
        )
    }

    /// Runs one session over an established link and records it for the peer.
    public func run(
        link: SecureLink,
        clock: any SyncClock = SystemSyncClock(),
        observer: (@Sendable (SyncSessionEvent) -> Void)? = nil
    ) async -> SyncSessionReport {
        // Self messages replicate as signed stubs: sign any that are missing before serving.
        try? await account.feed.signMissingSelfStubs()
        let hub = account.hub
        if link.negotiated.capabilities.contains(.cardPhase) {
            do throws(SyncSidePhaseError) {
                try await SyncSidePhase.run(link: link, handler: CardExchange(account: account), clock: clock)
            } catch {
                await link.close()
                var report = SyncSessionReport()
                if case .link(let failure) = error { report.interruption = failure } else { report.interruption = .closed }
                return report
            }
        }
        var circle: CircleExchange?
        if link.negotiated.capabilities.contains(.sidePhase) {
            let exchange = CircleExchange(account: account, contacts: source)
            circle = exchange
            do throws(SyncSidePhaseError) {
                try await SyncSidePhase.run(link: link, handler: exchange, clock: clock)
            } catch {
                await link.close()
                var report = SyncSessionReport()
                if case .link(let failure) = error { report.interruption = failure } else { report.interruption = .closed }
                return report
            }
        }
        // Groups: a contact is offered a KeyPackage of its own before serving, so it travels in this session
        // (docs/GROUPS.md, "Automatic offers"; nothing when one waits unused or offers are off).
        if let contact = await source.contact(staticKey: link.peerStaticKey) {
            _ = try? await account.groups.offerKeyPackageIfDue(to: contact.feedID)
        }
        // After a restore whose guard is lifted, the fresh prekeys and readmission requests travel in this session.
        _ = try? await account.reestablish()
        let options = SyncSessionOptions(blobSource: blobs ? source : nil, maximumBlobLength: maximumBlobLength) { event in
            hub.emit(.syncProgress(event))
            observer?(event)
        }
        let report = await SyncSession(link: link, source: source, clock: clock, options: options).run()
        await circle?.sessionEnded(completed: report.completed)
        let source = source
        let peer = SyncPeer(staticKey: link.peerStaticKey)
        await source.recordSession(report, peer: peer)
        // Direct messages that arrived are decrypted now (each exactly once; a failure here
        // leaves them for the next pass and does not undo the sync).
        _ = try? await account.direct.process()
        _ = try? await account.circle.process()
        // A home rebuilt through guardians without a backup publishes its device_migration rotation once this
        // session brought its own feed back (docs/CONTINUITY.md, "After the rebuild").
        _ = try? await account.recovery.completeMove()
        // This session may have brought the own head after a restore (docs/CONTINUITY.md section 8).
        _ = try? await account.reestablish()
        return report
    }
}
