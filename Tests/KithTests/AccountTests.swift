import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

@Suite struct AccountTests {
    func temporaryHome() -> AccountHome {
        AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-account-\(UUID().uuidString)"))
    }

    @Test func createOpenAndWrongPassphrase() throws {
        let home = temporaryHome()
        let created = try Account.create(home: home, scrypt: .testing, passphrase: { "pass" })
        try created.post("hello", audience: .selfOnly)
        let reopened = try Account.open(home: home, passphrase: { "pass" })
        #expect(reopened.feedID == created.feedID)
        #expect(try reopened.timeline().first?.content == .post(Post(body: "hello")))
        let vaultBefore = try Data(contentsOf: home.vaultURL)
        #expect {
            try Account.open(home: home, passphrase: { "nope" })
        } throws: { error in
            guard let error = error as? KithError, case .identity(.wrongPassphrase) = error else { return false }
            return error.exitCode == 4
        }
        #expect(try Data(contentsOf: home.vaultURL) == vaultBefore)
    }

    @Test func creatingTwiceIsRefusedAndMissingHomeIsClear() throws {
        let home = temporaryHome()
        _ = try Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        #expect(throws: KithError.self) { try Account.create(home: home, scrypt: .testing, passphrase: { "p" }) }
        #expect {
            try Account.open(home: temporaryHome(), passphrase: { "p" })
        } throws: { error in (error as? KithError)?.exitCode == 3 }
    }

    @Test func publicKeysAreReadableWithoutThePassphrase() throws {
        let home = temporaryHome()
        let account = try Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let keys = try Account.publicKeys(home: home)
        #expect(keys["feed_id"]?.stringValue == account.feedID.string)
        #expect(keys["identity_key"]?.stringValue == account.identity.publicKeys.identityKeyString)
    }

    @Test func sqliteHoldsNoPlaintextAndNoKeys() throws {
        let home = temporaryHome()
        let account = try Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let secret = "the eagle lands at midnight"
        try account.post(secret, audience: .selfOnly)
        let files = try FileManager.default.contentsOfDirectory(at: home.directory, includingPropertiesForKeys: nil)
        let seedBytes = try FileKeyVault(url: home.vaultURL, parameters: .testing, passphrase: { "p" }).loadSeed().withUnsafeBytes { Data($0) }
        let journal = account.identity.journalKey.withUnsafeBytes { Data($0) }
        for file in files where file.lastPathComponent.hasPrefix("kith.sqlite") {
            let data = try Data(contentsOf: file)
            #expect(data.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent)")
            #expect(data.range(of: seedBytes) == nil)
            #expect(data.range(of: journal) == nil)
        }
    }

    @Test func selfPostsTravelAsStubsAndBackupsRestore() throws {
        let alice = try Account.inMemory()
        for index in 0..<3 { try alice.post("note \(index)", audience: .selfOnly) }
        let peerForm = try alice.exportFeed()
        #expect(peerForm.allSatisfy { String(decoding: $0, as: UTF8.self).contains("\"stub\":\"self\"") })
        let backup = try alice.exportFeed(includeSelfContent: true)
        let bob = try Account.inMemory()
        let report = try bob.importFeed(lines: backup, identityKey: alice.identity.publicKeys.identityKey)
        #expect(report.outcomes.allSatisfy { $0.isAccepted })
        #expect(try bob.timeline(feed: alice.feedID).allSatisfy { $0.content == nil })
    }

    @Test func audiencesNotYetAvailableFailClearly() throws {
        let alice = try Account.inMemory()
        let peer = try Account.inMemory().feedID
        #expect {
            try alice.post("x", audience: .direct(peer))
        } throws: { error in (error as? KithError)?.exitCode == 2 && "\(error)".contains("contact") }
        #expect {
            try alice.post("x", audience: .group(Base64URL.encode([UInt8](repeating: 7, count: 32))))
        } throws: { error in (error as? KithError)?.exitCode == 6 }
        #expect {
            try alice.post("x", audience: .unknown("future:x"))
        } throws: { error in (error as? KithError)?.exitCode == 2 }
    }
}
