import Foundation
import KithAccountFixtures
import KithContinuity
import KithSync
import Testing
@testable import Kith

/// A move over a transport the caller opened (what the CLI's relay adapter does with a join-code relay;
/// docs/CONTINUITY.md section 7, "Through a relay"), here a loopback TCP pair standing in for the relay.
@Suite struct MoveOverTransportTests {
    /// Two connected transports: the sender's end and the receiver's end.
    static func transportPair() async throws -> (sender: any SyncTransport, receiver: any SyncTransport, listener: TCPSyncListener) {
        // The move's idle timeout (180 s) on both ends, as the relay adapter waits: a loaded machine is slow.
        let listener = try await TCPSyncListener.bind(host: "127.0.0.1", port: 0, idleTimeout: MoveLimits.idleTimeoutSeconds)
        let dialed = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, idleTimeout: MoveLimits.idleTimeoutSeconds)
        var connections = listener.connections.makeAsyncIterator()
        guard let accepted = await connections.next() else { throw MoveError.timedOut("no connection on loopback") }
        return (dialed, accepted, listener)
    }

    static func relayedReceiver() throws -> (AccountHome, MoveReceiver) {
        let home = AccountHome(directory: MoveTestSupport.temporary("relayed"))
        return (home, try MoveReceiver.relayed(home: home, joinCode: "12345678"))
    }

    @Test func aRelayedReceiverNamesItsServerInTheCodeAndRefusesOneThatIsNotAWebAddress() throws {
        let home = AccountHome(directory: MoveTestSupport.temporary("relayed-server"))
        let receiver = try MoveReceiver.relayed(home: home, joinCode: "12345678", server: "https://relay.example.org")
        #expect(receiver.code.route == .relay(joinCode: "12345678", server: "https://relay.example.org"))
        #expect(throws: KithError.self) { _ = try MoveReceiver.relayed(home: home, joinCode: "12345678", server: "gopher://relay.example.org") }
    }

    @Test func aMoveOverAGivenTransportCarriesTheAccountAndRetiresTheOldHome() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver) = try Self.relayedReceiver()
        #expect(receiver.code.route == .relay(joinCode: "12345678", server: nil))
        let (senderEnd, receiverEnd, listener) = try await Self.transportPair()
        defer { Task { await listener.close() } }
        let receiving = Task {
            try await receiver.receive(over: receiverEnd, scrypt: .testing, passphrase: { "new" }, clock: { MetAccounts.now })
        }
        let sent = try await alice.moveSend(to: receiver.code, over: senderEnd)
        let (moved, report) = try await receiving.value
        #expect(sent.confirmation == report.confirmation)
        #expect(moved.feedID == alice.feedID)
        #expect(MoveTestSupport.texts(try await moved.feed.timeline()).contains("alice before the move"))
        #expect(!FileManager.default.fileExists(atPath: oldHome.vaultURL.path))
        #expect(try await Account.open(home: newHome, passphrase: { "new" }).feedID == alice.feedID)
        // One sender per receiver.
        let again = await MoveTestSupport.failure {
            try await receiver.receive(over: receiverEnd, scrypt: .testing, passphrase: { "new" })
        }
        #expect(MoveTestSupport.moveError(again) != nil)
    }

    @Test func aWrongSecretOverAGivenTransportTransfersNothing() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (newHome, receiver) = try Self.relayedReceiver()
        let (senderEnd, receiverEnd, listener) = try await Self.transportPair()
        defer { Task { await listener.close() } }
        let receiving = Task { try await receiver.receive(over: receiverEnd, scrypt: .testing, passphrase: { "new" }) }
        let wrong = try MoveCode(
            relayJoinCode: "12345678", receiverStaticKey: receiver.code.receiverStaticKey, secret: receiver.code.secret.map { $0 ^ 0x5A })
        let senderError = await MoveTestSupport.failure { try await alice.moveSend(to: wrong, over: senderEnd) }
        #expect(MoveTestSupport.moveError(senderError) == .refusedByPeer("wrong move code"))
        let receiverError = await MoveTestSupport.failure { try await receiving.value }
        #expect(MoveTestSupport.moveError(receiverError) == .wrongCode)
        #expect(MoveTestSupport.isEmpty(newHome))
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome))
    }

    @Test func aRelayCodeNeedsATransportAndARelayedReceiverCannotListen() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (_, receiver) = try Self.relayedReceiver()
        let sendError = await MoveTestSupport.failure { try await alice.moveSend(to: receiver.code) }
        guard case .input? = sendError else {
            Issue.record("a relay code was dialed: \(String(describing: sendError))")
            return
        }
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome), "the refusal left the account working")
        let receiveError = await MoveTestSupport.failure { try await receiver.receive(scrypt: .testing, passphrase: { "new" }) }
        guard case .input? = receiveError else {
            Issue.record("a relayed receiver listened: \(String(describing: receiveError))")
            return
        }
        // A bad join code is a typed refusal.
        await #expect(throws: KithError.self) {
            _ = try MoveReceiver.relayed(home: AccountHome(directory: MoveTestSupport.temporary("bad")), joinCode: "12 34")
        }
    }
}
