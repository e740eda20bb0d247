@testable import Kith
import Foundation
import KithAccountFixtures
import KithGroups
import KithIdentity
import Synchronization
import Testing

/// Issue 27, items 1, 3 and 6: personas are created, listed, opened and deleted through `account.personas`, with typed
/// errors; deleting one (or exploding its conversation) leaves no byte of it under the home; an expired one is gone
/// after the main account opens, with no command touching it.
@Suite struct PersonaLifecycleTests {
    final class Clock: Sendable {
        let now = Mutex<Int64>(MetAccounts.now)
        func advance(by seconds: Int64) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Int64 { { [self] in self.now.withLock { $0 } } }
    }

    /// The persona error `body` throws, if any.
    static func personaError<R>(_ body: () async throws(KithError) -> R) async -> PersonaError? {
        do {
            _ = try await body()
            return nil
        } catch {
            if case .persona(let error) = error { return error }
            return nil
        }
    }

    @Test func createListOpenAndDelete() async throws {
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await PersonaTestSupport.mainAccount(home: home)
        #expect(try await main.personas.all().isEmpty)
        let (persona, opened) = try await main.personas.create()
        #expect(persona.state == .pending && persona.groupID == nil && PersonaHome.isLocalID(persona.id))
        #expect(opened.feedID == persona.feedID && opened.feedID != main.feedID)
        #expect(try await opened.contacts.all().isEmpty)
        #expect(try await main.personas.all() == [persona])
        let directory = home.personasDirectory.appendingPathComponent(persona.id)

        // Reopened from the main account (after the main account itself is reopened): the same identity.
        let reopenedMain = try await Account.open(home: home, passphrase: { "p" })
        let again = try await reopenedMain.personas.open(persona.id)
        #expect(again.feedID == persona.feedID)
        #expect(again.identity.publicKeys.dhKeyString == opened.identity.publicKeys.dhKeyString)
        // No public.json (the persona's feed id in plaintext, readable without the passphrase) and no vault of its own,
        // after creation nor after an open.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("public.json").path), "a persona's feed id in plaintext")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("identity.vault").path))

        // Its files hold nothing of the main identity.
        #expect(PersonaTestSupport.foundInFiles(PersonaTestSupport.secretNeedles(of: main), under: directory) == [])

        try await reopenedMain.personas.delete(persona.id)
        #expect(try await reopenedMain.personas.all().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(await Self.personaError { () throws(KithError) in try await reopenedMain.personas.open(persona.id) } == .unknown(id: persona.id))
        #expect(await Self.personaError { () throws(KithError) in try await reopenedMain.personas.delete(persona.id) } == .unknown(id: persona.id))
        #expect(await Self.personaError { () throws(KithError) in try await reopenedMain.personas.open("../x") } == .unknown(id: "../x"))
    }

    @Test func typedRefusals() async throws {
        let memory = try Account.inMemory()
        #expect(await Self.personaError { () throws(KithError) in try await memory.personas.create() } == .needsHome)
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await PersonaTestSupport.mainAccount(home: home)
        let (_, opened) = try await main.personas.create()
        #expect(await Self.personaError { () throws(KithError) in try await opened.personas.create() } == .isPersona)
        // A damaged index is a typed error, not a crash, and is not overwritten.
        try Data([0x01, 0x02, 0x03]).write(to: home.personaIndexURL)
        guard case .damaged? = await Self.personaError({ () throws(KithError) in try await main.personas.all() }) else {
            Issue.record("a damaged index is not reported as damaged")
            return
        }
        // The main account still opens (the sweep on open does not lock the person out); the index is left as it was.
        let reopened = try await Account.open(home: home, passphrase: { "p" })
        #expect(reopened.feedID == main.feedID)
        #expect(try Data(contentsOf: home.personaIndexURL) == Data([0x01, 0x02, 0x03]))
    }

    @Test func aPersonaGroupRecordsItsConversationAndExplodingLeavesNoTrace() async throws {
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await PersonaTestSupport.mainAccount(home: home)
        let (persona, opened, group) = try await main.personas.createGroup(name: "meetup", explodeAt: Int64(Date().timeIntervalSince1970) + 3600)
        #expect(persona.state == .active && persona.groupID == group.id && persona.conversation == "meetup")
        #expect(persona.expiresAt == group.explodeAt)
        #expect(try await main.personas.holding(group.id) == persona)
        #expect(group.committer == opened.feedID)
        try await opened.groups.send(group.id, text: "see you at eight")
        let made = try await opened.invites.create(group: group.id, name: "Meetup", relay: InviteRelay(server: "http://127.0.0.1:7460", joinCode: "abcdefghij0123456789"))
        #expect(made.invite.payload.creatorInboxID.feedID == opened.feedID)
        // The main account's store never saw the persona.
        let personaNeedles = PersonaTestSupport.secretNeedles(of: opened) + [("group id", Array(group.id.string.utf8))]
        try main.store.truncateWriteAheadLog()
        let mainFiles = PersonaTestSupport.files(under: home.directory).filter { !$0.0.path.contains("/personas/") }
        #expect(mainFiles.flatMap { PersonaTestSupport.found(personaNeedles, in: $0.1) } == [])

        try await main.personas.explode(persona.id)
        #expect(try await main.personas.all().isEmpty)
        #expect(PersonaTestSupport.foundInFiles(personaNeedles, under: home.directory) == [])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.personasDirectory.path)) ?? [] == [])
    }

    @Test func anExpiredPersonaIsDeletedWhenTheMainAccountOpens() async throws {
        let clock = Clock()
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        var needles: [(String, [UInt8])] = []
        var kept = ""
        do {
            let main = try await PersonaTestSupport.mainAccount(home: home, clock: clock.read)
            let (persona, opened, group) = try await main.personas.createGroup(name: "tonight", explodeAt: MetAccounts.now + 3600)
            try await opened.groups.send(group.id, text: "brief")
            needles = PersonaTestSupport.secretNeedles(of: opened)
            #expect(persona.expiresAt == MetAccounts.now + 3600)
            kept = try await main.personas.createGroup(name: "lasting").persona.id
        }
        clock.advance(by: 7200)
        let reopened = try await Account.open(home: home, passphrase: { "p" }, clock: clock.read)
        #expect(try await reopened.personas.all().map(\.id) == [kept])
        #expect(PersonaTestSupport.foundInFiles(needles, under: home.directory) == [])
    }

    /// A persona uses its own push registration and tokens: the main account's registration is neither visible to it nor
    /// written into its files, and a persona's registration stays out of the main account.
    @Test func aPersonaHasItsOwnPushRegistration() async throws {
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        let main = try await PersonaTestSupport.mainAccount(home: home)
        try await main.push.saveRegistration(PushAccountTests.registration(password: "main-password-0123", authToken: "main-token-0123456789"))
        let (persona, opened) = try await main.personas.create()
        #expect(try await opened.push.registration() == nil)
        #expect(try await opened.push.tokenPools().isEmpty)
        try await opened.push.saveRegistration(PushAccountTests.registration(password: "persona-password-0123", authToken: "persona-token-0123456789"))
        #expect(try await main.push.registration()?.secrets.authToken == "main-token-0123456789")
        let directory = home.personasDirectory.appendingPathComponent(persona.id)
        #expect(PersonaTestSupport.foundInFiles([("main push token", Array("main-token-0123456789".utf8))], under: directory) == [])
        try main.store.truncateWriteAheadLog()
        let mainFiles = PersonaTestSupport.files(under: home.directory).filter { !$0.0.path.contains("/personas/") }
        #expect(mainFiles.flatMap { PersonaTestSupport.found([("persona push token", Array("persona-token-0123456789".utf8))], in: $0.1) } == [])
    }

    @Test func anOrphanDirectoryIsErasedOnOpen() async throws {
        let home = PersonaTestSupport.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.directory) }
        _ = try await PersonaTestSupport.mainAccount(home: home)
        let orphan = home.personasDirectory.appendingPathComponent(PersonaHome.newLocalID())
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data("left by a crash".utf8).write(to: orphan.appendingPathComponent("kith.sqlite"))
        _ = try await Account.open(home: home, passphrase: { "p" })
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
    }
}
