import Crypto
import Kith
import KithIdentity
import KithStore
import KithSync
import Synchronization

/// `kith sync nearby`: announce this device on the LAN with a beacon only contacts recognise,
/// listen for theirs, and sync over TCP with every contact found (docs/sync.md, section 10c).
///
/// - Beacons (``NearbyBeaconCodebook``): one 8-byte tag per contact, derived from the pair's
///   contacts key and the 10-minute epoch, padded with random tags; sent every
///   ``NearbyOptions/beaconInterval`` seconds to the multicast group.
/// - On recognising a contact's beacon, the side with the lower Noise static key dials at once
///   (IK with the contact's `dh_key`, XX fallback); the other dials only after
///   ``NearbyOptions/dialGrace`` if no link appeared. If both links come up anyway,
///   ``NearbyLinkArbiter`` keeps the one dialed by the lower key on both sides.
/// - Each contact is synced at most once per run (after a completed session it is left alone).
/// - Discovery stops after ``NearbyOptions/duration``, or earlier on ``stop()`` (connections the
///   listener accepted by then are still served); sessions still running get
///   ``NearbyOptions/sessionGrace`` more seconds, then their links are closed (the next sync
///   resumes exactly where they stopped).
public final class NearbySync: Sendable {
    /// What happened during a run, for display.
    public enum Event: Sendable {
        /// The TCP listener is up on this port.
        case listening(port: Int)
        /// A contact's beacon was recognised.
        case heard(ContactRecord, host: String)
        /// A session with a contact started (`initiated`: this side dialed).
        case sessionStarted(ContactRecord, initiated: Bool)
        /// A session ended.
        case sessionFinished(ContactRecord, SyncSessionReport)
        /// A second link with the same contact was closed by the tie-break.
        case duplicateLinkDropped(ContactRecord)
        /// Dialing or the handshake with a contact failed.
        case connectFailed(ContactRecord?, String)
    }

    /// One finished session.
    public struct Result: Sendable {
        /// The contact.
        public var contact: ContactRecord
        /// Whether this side dialed.
        public var initiated: Bool
        /// The session's report.
        public var report: SyncSessionReport
    }

    private let agent: SyncAgent
    private let datagrams: any NearbyDatagramTransport
    private let options: NearbyOptions
    private let localKey: [UInt8]
    private let arbiter: NearbyLinkArbiter
    /// Handshake deadline and per-source bounds for incoming connections.
    private let gate = TCPHandshakeGate()
    private let scheduled = Mutex<Set<[UInt8]>>([])
    private let activeSessions = Mutex(0)
    private let results = Mutex<[Result]>([])
    /// The end of the discovery window (the deadline or ``stop()``).
    private let discoveryOver = NearbyStopSignal()

    /// Creates a run over a datagram transport (``UDPMulticastTransport`` on a LAN).
    public init(agent: SyncAgent, datagrams: any NearbyDatagramTransport, options: NearbyOptions = NearbyOptions()) {
        self.agent = agent
        self.datagrams = datagrams
        self.options = options
        self.localKey = Array(agent.account.identity.dhKey.publicKey.rawRepresentation)
        self.arbiter = NearbyLinkArbiter(localKey: localKey)
    }

    /// The contacts as nearby discovery sees them (static key and beacon key), with their records.
    public func nearbyContacts() async throws(KithError) -> [(record: ContactRecord, contact: NearbyContact)] {
        try await agent.account.contacts.withKeys().compactMap { record, key in
            guard let staticKey = SyncAgent.staticKey(of: record) else { return nil }
            return (record, NearbyContact(staticKey: staticKey, beaconKey: NearbyBeacon.beaconKey(contactsKey: key)))
        }
    }

    /// Ends discovery now (from any task, e.g. an `onEvent` handler once the contacts wanted have synced): beacons
    /// stop, the listener closes, waiting dials give up; sessions already running get ``NearbyOptions/sessionGrace``
    /// as at the end of the window. A run is one window: after `stop()`, ``run(onEvent:)`` returns at once.
    public func stop() {
        discoveryOver.stop()
    }

    /// Runs discovery for the configured duration (or until ``stop()``) and returns every finished session.
    /// - Throws: ``KithError`` when the TCP listener cannot be bound or the contacts cannot be read.
    public func run(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws(KithError) -> [Result] {
        let contacts = try await nearbyContacts()
        let listener: TCPSyncListener
        do throws(SyncTransportError) {
            listener = try await TCPSyncListener.bind(host: options.tcpHost, port: options.tcpPort)
        } catch {
            throw .sync(.transport(error))
        }
        onEvent(.listening(port: listener.port))
        let advertised = UInt16(clamping: options.advertisedPort ?? listener.port)
        let deadline = ContinuousClock.now + .seconds(options.duration)
        let (events, sink) = AsyncStream<Arrival>.makeStream()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.beaconLoop(contacts: contacts.map(\.contact), port: advertised, until: deadline) }
            group.addTask { await self.hearLoop(contacts: contacts, sink: sink) }
            group.addTask {
                await withTaskGroup(of: Void.self) { late in
                    for await transport in listener.connections {
                        // Accepted before the listener closed but handed over after the discovery
                        // window: the dialer made it in time, so it is served all the same.
                        if case .terminated = sink.yield(.incoming(transport)) {
                            late.addTask { await self.serve(transport, contacts: contacts.map(\.record), onEvent: onEvent) }
                        }
                    }
                }
            }
            group.addTask {
                await self.discoveryOver.sleep(until: deadline)
                self.discoveryOver.stop()
                sink.finish()
            }
            for await arrival in events {
                switch arrival {
                case .heard(let record, let staticKey, let host, let port):
                    onEvent(.heard(record, host: host))
                    guard scheduled.withLock({ $0.insert(staticKey).inserted }) else { continue }
                    group.addTask {
                        await self.dial(record, staticKey: staticKey, host: host, port: port, until: deadline, onEvent: onEvent)
                        _ = self.scheduled.withLock { $0.remove(staticKey) }
                    }
                case .incoming(let transport):
                    group.addTask { await self.serve(transport, contacts: contacts.map(\.record), onEvent: onEvent) }
                }
            }
            // The discovery window is over: stop announcing and listening; give sessions a grace period.
            await listener.close()
            await datagrams.close()
            group.addTask {
                let graceEnd = ContinuousClock.now + .seconds(self.options.sessionGrace)
                while self.activeSessions.withLock({ $0 }) > 0, ContinuousClock.now < graceEnd {
                    try? await Task.sleep(for: .milliseconds(100))
                }
                await self.arbiter.closeAll()
            }
        }
        return results.withLock { $0 }
    }

    private enum Arrival: Sendable {
        case heard(ContactRecord, staticKey: [UInt8], host: String, port: Int)
        case incoming(TCPTransport)
    }

    // MARK: Beacons

    private func beaconLoop(contacts: [NearbyContact], port: UInt16, until deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline, !discoveryOver.isStopped {
            let codebook = NearbyBeaconCodebook(localStaticKey: localKey, contacts: contacts, epoch: options.currentEpoch())
            for beacon in codebook.beacons(port: port) {
                try? await datagrams.send(beacon.encoded)
            }
            await discoveryOver.sleep(seconds: options.beaconInterval)
        }
    }

    private func hearLoop(contacts: [(record: ContactRecord, contact: NearbyContact)], sink: AsyncStream<Arrival>.Continuation) async {
        var codebook = NearbyBeaconCodebook(localStaticKey: localKey, contacts: contacts.map(\.contact), epoch: options.currentEpoch())
        for await datagram in datagrams.datagrams {
            guard let beacon = try? NearbyBeacon(decoding: datagram.bytes) else { continue }
            let epoch = options.currentEpoch()
            if epoch != codebook.epoch {
                codebook = NearbyBeaconCodebook(localStaticKey: localKey, contacts: contacts.map(\.contact), epoch: epoch)
            }
            for recognised in codebook.recognise(beacon) {
                guard let record = contacts.first(where: { $0.contact.staticKey == recognised.staticKey })?.record else { continue }
                sink.yield(.heard(record, staticKey: recognised.staticKey, host: datagram.sourceHost, port: Int(beacon.port)))
            }
        }
    }

    // MARK: Links

    private func dial(
        _ record: ContactRecord, staticKey: [UInt8], host: String, port: Int,
        until deadline: ContinuousClock.Instant, onEvent: @Sendable (Event) -> Void
    ) async {
        if !arbiter.dialsFirst(staticKey) {
            await discoveryOver.sleep(seconds: options.dialGrace)
        }
        guard ContinuousClock.now < deadline, !discoveryOver.isStopped, await arbiter.shouldDial(staticKey) else { return }
        let link: SecureLink
        do {
            link = try await agent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
                try await TCPTransport.connect(host: host, port: port)
            }, contact: record)
        } catch {
            await arbiter.dialFinished(staticKey)
            onEvent(.connectFailed(record, "\(error)"))
            return
        }
        await arbiter.dialFinished(staticKey)
        await runSession(link, contact: record, initiated: true, onEvent: onEvent)
    }

    private func serve(_ transport: TCPTransport, contacts: [ContactRecord], onEvent: @escaping @Sendable (Event) -> Void) async {
        // The listener's handshake rules (deadline, bounded per source): docs/sync.md, section 10.
        let agent = agent
        guard let link = await gate.authenticate(transport, handshake: { transport throws(SecureLinkError) in
            try await agent.accept(over: transport)
        }, onEvent: { event in
            onEvent(.connectFailed(nil, "\(event)"))
        }) else { return }
        guard let record = await agent.source.contact(staticKey: link.peerStaticKey) else {
            await link.close()
            return
        }
        await runSession(link, contact: record, initiated: false, onEvent: onEvent)
    }

    private func runSession(_ link: SecureLink, contact: ContactRecord, initiated: Bool, onEvent: @Sendable (Event) -> Void) async {
        let peer = link.peerStaticKey
        let claim = await arbiter.claim(peer: peer, initiatedLocally: initiated) { await link.close() }
        guard claim.verdict == .run else {
            await link.close()
            onEvent(.duplicateLinkDropped(contact))
            return
        }
        activeSessions.withLock { $0 += 1 }
        onEvent(.sessionStarted(contact, initiated: initiated))
        let report = await agent.run(link: link, observer: options.observer)
        activeSessions.withLock { $0 -= 1 }
        await arbiter.release(claim.id, peer: peer, completed: report.completed)
        results.withLock { $0.append(Result(contact: contact, initiated: initiated, report: report)) }
        onEvent(.sessionFinished(contact, report))
    }
}
