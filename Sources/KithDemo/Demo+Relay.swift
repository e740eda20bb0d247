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
            try await alice.post("Postcard \(index) from the road.", audience: .contacts)
        }
        let pairing = try RelayPairing(serverURL: serverURL)
        let code = JoinCode.randomDigits(count: 8)
        summary.joinCode = code.text
        let (aliceDevice, bobDevice) = (DeviceID.random(), DeviceID.random())
        try await pairing.offer(code, device: aliceDevice, expiresInSeconds: 120)
        say("Alice asks \(serverURL) for a pairing and reads her join code to Bob over the phone: \(code.text)")
        let bobRoom = try await pairing.accept(code, device: bobDevice)
        let aliceRoom = try await pairing.waitForAcceptance(code, device: aliceDevice, pollInterval: .milliseconds(50), timeout: .seconds(30))
        say("Bob types it in; the server pairs them in one room (\(aliceRoom == bobRoom ? "the same room for both" : "DIFFERENT rooms")). Nobody else can accept that code now.")

        let aliceAgent = SyncAgent(account: alice)
        let bobAgent = SyncAgent(account: bob)
        let url = pairing.signalingURL
        @Sendable func side(_ agent: SyncAgent, room: RoomID, device: DeviceID) async throws -> (RelayRole, SyncSessionReport) {
            try await RelayConnection.open(signalingURL: url, room: room, device: device, timeouts: RelayTimeouts(peer: .seconds(30))) { transport, role in
                let link = role == .initiator ? try await agent.initiate(over: transport) : try await agent.accept(over: transport)
                return (role, await agent.run(link: link))
            }
        }
        async let aliceSide = side(aliceAgent, room: aliceRoom, device: aliceDevice)
        let bobResult = try await side(bobAgent, room: bobRoom, device: bobDevice)
        let aliceResult = try await aliceSide
        summary.aliceInitiated = aliceResult.0 == .initiator
        summary.delivered = bobResult.1.messagesAccepted
        summary.completed = aliceResult.1.completed && bobResult.1.completed
        say("Both join the room over WebSocket and switch it to relay mode; \(summary.aliceInitiated ? "Alice" : "Bob") (first in the room) starts the Noise handshake.")
        say("The handshake proves each is the other's contact (their contact-card keys); the server only forwards ciphertext frames.")
        say("Bob received \(summary.delivered) new messages from Alice through the relay; sessions \(summary.completed ? "completed" : "did NOT complete").")
        return summary
    }
}
