import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithSync
import KithFeed

extension Demo {
    /// What the relay step did.
    public struct RelaySummary: Sendable {
        /// The join code Alice made (digits).
        public var joinCode = ""
        /// Whether Alice's side ran the Noise initiator (she joined the room first).
        public var aliceInitiated = false
        /// Messages Bob accepted through the relay.
        public var delivered = 0
        /// Whether both sessions completed.
        public var completed = false
    }

    /// Step 11 of the tour: Alice and Bob (contacts) are apart; they pair by join code on the
    /// rendezvous server at `serverURL` and sync through its blind relay.
    public static func runRelay(in directory: URL, serverURL: String, posts: Int = 5, say: @Sendable (String) -> Void) async throws -> RelaySummary {
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: passphrase)
        let bob = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("bob")), passphrase: passphrase)
        var summary = RelaySummary()

        say("")
        say("== 12. Apart: pair by join code on a rendezvous server, sync through its blind relay ==")
        for index in 1...posts {
            try await alice.publishing.post("Postcard \(index) from the road.", audience: .contacts)
        }
        let code = JoinCode.randomDigits(count: 8)
        summary.joinCode = code.text
        let synced = try await relaySync(alice, bob, code: code, serverURL: serverURL) { rooms in
            say("Alice asks \(serverURL) for a pairing and reads her join code to Bob over the phone: \(code.text)")
            say("Bob types it in; the server pairs them in one room (\(rooms ? "the same room for both" : "DIFFERENT rooms")). Nobody else can accept that code now.")
        }
        summary.aliceInitiated = synced.firstInitiated
        summary.delivered = synced.second.messagesAccepted
        summary.completed = synced.first.completed && synced.second.completed
        say("Both join the room over WebSocket and switch it to relay mode; \(summary.aliceInitiated ? "Alice" : "Bob") (first in the room) starts the Noise handshake.")
        say("The handshake proves each is the other's contact (their contact-card keys); the server only forwards ciphertext frames.")
        say("Bob received \(summary.delivered) new messages from Alice through the relay; sessions \(summary.completed ? "completed" : "did NOT complete").")
        return summary
    }

    /// Pairs `first` (offers `code`) and `second` (accepts it) on the rendezvous server at `serverURL` and runs one sync
    /// session through its blind relay; `paired` is told whether both got the same room.
    static func relaySync(
        _ first: Account, _ second: Account, code: JoinCode, serverURL: String, paired: (Bool) -> Void = { _ in }
    ) async throws -> (first: SyncSessionReport, second: SyncSessionReport, firstInitiated: Bool) {
        let pairing = try RelayPairing(serverURL: serverURL)
        let (firstDevice, secondDevice) = (DeviceID.random(), DeviceID.random())
        try await pairing.offer(code, device: firstDevice, expiresInSeconds: 120)
        let secondRoom = try await pairing.accept(code, device: secondDevice)
        let firstRoom = try await pairing.waitForAcceptance(code, device: firstDevice, pollInterval: .milliseconds(50), timeout: .seconds(30))
        paired(firstRoom == secondRoom)
        let url = pairing.signalingURL
        @Sendable func side(_ agent: SyncAgent, room: RoomID, device: DeviceID) async throws -> (RelayRole, SyncSessionReport) {
            try await RelayConnection.open(signalingURL: url, room: room, device: device, timeouts: RelayTimeouts(peer: .seconds(30))) { transport, role in
                let link = role == .initiator ? try await agent.initiate(over: transport) : try await agent.accept(over: transport)
                return (role, await agent.run(link: link))
            }
        }
        async let firstSide = side(SyncAgent(account: first), room: firstRoom, device: firstDevice)
        let secondResult = try await side(SyncAgent(account: second), room: secondRoom, device: secondDevice)
        let firstResult = try await firstSide
        try? await pairing.client.deleteRoom(firstRoom)
        return (firstResult.1, secondResult.1, firstResult.0 == .initiator)
    }
}
