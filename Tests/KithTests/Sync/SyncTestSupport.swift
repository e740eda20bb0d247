import Foundation
import KithAccountFixtures
import KithFeed
import KithIdentity
import KithSync
import Synchronization
@testable import Kith

/// Two in-memory accounts that exchanged cards, and a way to sync them over the simulated radio.
enum SyncPair {
    static let now = MetAccounts.now

    static func account(_ byte: UInt8) throws -> Account { try MetAccounts.account(byte) }

    /// Alice and Bob, contacts of each other.
    static func met() async throws -> (Account, Account) { try await MetAccounts.met() }

    /// What one session did on each side, plus the message ids Alice queued for sending.
    struct Outcome {
        var alice = SyncSessionReport()
        var bob = SyncSessionReport()
        var aliceSent: [SyncMessageID] = []
        var air: SimulatedAirStatistics?
    }

    /// One session with fresh ``SyncAgent``s (as new processes would have), Alice initiating with IK.
    static func session(
        _ alice: Account, _ bob: Account,
        configuration: SimulatedBLEConfiguration = SimulatedBLEConfiguration(),
        blobs: Bool = true
    ) async -> Outcome {
        let aliceAgent = SyncAgent(account: alice, blobs: blobs)
        let bobAgent = SyncAgent(account: bob, blobs: blobs)
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let sent = Mutex<[SyncMessageID]>([])
        async let bobReport: SyncSessionReport? = {
            guard let link = try? await bobAgent.accept(over: peripheral) else { return nil }
            return await bobAgent.run(link: link, clock: peripheral)
        }()
        var outcome = Outcome()
        let bobContact = try? await alice.contacts.all().first { $0.feedID == bob.feedID }
        if let link = try? await aliceAgent.initiate(over: central, contact: bobContact) {
            outcome.alice = await aliceAgent.run(link: link, clock: central) { event in
                if case .messageSent(let id, _, _) = event { sent.withLock { $0.append(id) } }
            }
        } else {
            await central.close()
        }
        outcome.bob = await bobReport ?? SyncSessionReport()
        outcome.aliceSent = sent.withLock { $0 }
        outcome.air = await central.statistics()
        return outcome
    }
}
