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

    @Test func createOpenAndWrongPassphrase() async throws {
        let home = temporaryHome()
        let created = try await Account.create(home: home, scrypt: .testing, passphrase: { "pass" })
        try await created.publishing.post("hello", audience: .selfOnly)
        let reopened = try await Account.open(home: home, passphrase: { "pass" })
        #expect(reopened.feedID == created.feedID)
        #expect(try await reopened.feed.timeline().first?.content == .post(Post(body: "hello")))
        let vaultBefore = try Data(contentsOf: home.vaultURL)
        await #expect {
            try await Account.open(home: home, passphrase: { "nope" })
        } throws: { error in
            guard let error = error as? KithError, case .vault(.wrongPassphrase) = error else { return false }
            return true
        }
        #expect(try Data(contentsOf: home.vaultURL) == vaultBefore)
    }

    @Test func creatingTwiceIsRefusedAndMissingHomeIsClear() async throws {
        let home = temporaryHome()
        _ = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        await #expect {
            try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        } throws: { error in
            guard case .vault(.vaultExists)? = error as? KithError else { return false }
            return true
        }
        await #expect {
            try await Account.open(home: temporaryHome(), passphrase: { "p" })
        } throws: { error in
            guard case .vault(.vaultMissing)? = error as? KithError else { return false }
            return true
        }
    }

    @Test func publicKeysAreReadableWithoutThePassphrase() async throws {
        let home = temporaryHome()
        let account = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let keys = try await Account.publicKeys(home: home)
        #expect(keys["feed_id"]?.stringValue == account.feedID.string)
        #expect(keys["identity_key"]?.stringValue == account.identity.publicKeys.identityKeyString)
    }

    @Test func sqliteHoldsNoPlaintextAndNoKeys() async throws {
        let home = temporaryHome()
        let account = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let secret = "the eagle lands at midnight"
        try await account.publishing.post(secret, audience: .selfOnly)
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

    @Test func selfPostsTravelAsStubsAndBackupsRestore() async throws {
        let alice = try Account.inMemory()
        for index in 0..<3 { try await alice.publishing.post("note \(index)", audience: .selfOnly) }
        let peerForm = try await alice.feed.export()
        #expect(peerForm.allSatisfy { String(decoding: $0, as: UTF8.self).contains("\"stub\":\"self\"") })
        let backup = try await alice.feed.export(includeSelfContent: true)
        let bob = try Account.inMemory()
        let report = try await bob.feed.importVerified(lines: backup, identityKey: alice.identity.publicKeys.identityKey)
        #expect(report.outcomes.allSatisfy { $0.isAccepted })
        #expect(try await bob.feed.timeline(feed: alice.feedID).allSatisfy { $0.content == nil })
    }

    @Test func audiencesNotYetAvailableFailClearly() async throws {
        let alice = try Account.inMemory()
        let peer = try Account.inMemory().feedID
        await #expect {
            try await alice.publishing.post("x", audience: .direct(peer))
        } throws: { error in
            guard case .contacts(.notAContact(let feed))? = error as? KithError else { return false }
            return feed == peer && "\(error)".contains("contact")
        }
        await #expect {
            try await alice.publishing.post("x", audience: .group(Base64URL.encode([UInt8](repeating: 7, count: 32))))
        } throws: { error in
            guard case .group(.unknownGroup)? = error as? KithError else { return false }
            return "\(error)".contains("kith groups")
        }
        await #expect {
            try await alice.publishing.post("x", audience: .unknown("future:x"))
        } throws: { error in
            guard case .input? = error as? KithError else { return false }
            return true
        }
    }
}
