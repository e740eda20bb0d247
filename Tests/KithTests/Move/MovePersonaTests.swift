import Foundation
import KithAccountFixtures
import KithContinuity
import Testing
@testable import Kith

/// A move does not carry personas (docs/CONTINUITY.md section 7, "Personas"): a home that holds any is refused until
/// the caller says their conversations may end; then the move goes on and the personas end with the old home. A
/// backup says how many personas it leaves out.
@Suite struct MovePersonaTests {
    @Test func aHomeWithPersonasMovesOnlyWhenTheirEndIsAccepted() async throws {
        let (alice, oldHome, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let (persona, _) = try await alice.personas.create()
        let (_, receiver, receiving) = try await MoveTestSupport.waitingReceiver()

        let refused = await MoveTestSupport.failure { try await alice.moveSend(to: receiver.code) }
        guard case .continuity(.personasNotCarried(let count))? = refused else {
            Issue.record("a move would have ended a persona silently: \(String(describing: refused))")
            return
        }
        #expect(count == 1)
        #expect(refused?.description.contains("--end-personas") == true)
        // Nothing was sent and nothing changed: the old home still works, with its persona.
        #expect(try await MoveTestSupport.stillWorks(alice, oldHome))
        #expect(try await alice.personas.all().map(\.id) == [persona.id])
        let personaDirectory = oldHome.personasDirectory.appendingPathComponent(persona.id)
        #expect(FileManager.default.fileExists(atPath: personaDirectory.path))

        let sent = try await alice.moveSend(to: receiver.code, endingPersonas: true)
        let (moved, report) = try await receiving.value
        #expect(sent.confirmation == report.confirmation && moved.feedID == alice.feedID)
        #expect(!FileManager.default.fileExists(atPath: personaDirectory.path))
    }

    @Test func aBackupSaysHowManyPersonasItLeavesOut() async throws {
        let (alice, _, _) = try await MoveTestSupport.aliceAtHomeWithBob()
        let file = BackupRestoreTests.temporary("file")
        #expect(try await alice.backup(to: file, secret: .recoveryKey(ReestablishTests.key)).personasNotCarried == 0)
        _ = try await alice.personas.create()
        let second = BackupRestoreTests.temporary("file")
        #expect(try await alice.backup(to: second, secret: .recoveryKey(ReestablishTests.key)).personasNotCarried == 1)
    }
}
