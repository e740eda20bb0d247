import Foundation
import Testing
@testable import KithIdentity

@Suite struct FileKeyVaultTests {
    func temporaryVault(_ passphrase: String) -> FileKeyVault {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kith-vault-\(UUID().uuidString)/identity.vault")
        return FileKeyVault(url: url, parameters: .testing, passphrase: { passphrase })
    }

    @Test func storesAndLoadsTheSeed() throws {
        let vault = temporaryVault("correct horse")
        let seed = Seed.generate()
        try vault.storeSeed(seed)
        let loaded = try vault.loadSeed()
        #expect(loaded.withUnsafeBytes { Array($0) } == seed.withUnsafeBytes { Array($0) })
    }

    @Test func fileNeverContainsTheSeedInPlaintext() throws {
        let vault = temporaryVault("correct horse")
        let seed = Seed.generate()
        try vault.storeSeed(seed)
        let file = try Data(contentsOf: vault.url)
        let raw = seed.withUnsafeBytes { Data($0) }
        #expect(file.count == FileKeyVault.fileLength)
        #expect(file.range(of: raw) == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: vault.url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func wrongPassphraseFailsAndChangesNothing() throws {
        let vault = temporaryVault("right")
        try vault.storeSeed(Seed.generate())
        let before = try Data(contentsOf: vault.url)
        let wrong = FileKeyVault(url: vault.url, parameters: .testing, passphrase: { "wrong" })
        #expect(throws: IdentityError.wrongPassphrase) { try wrong.loadSeed() }
        #expect(try Data(contentsOf: vault.url) == before)
    }

    @Test func refusesToOverwrite() throws {
        let vault = temporaryVault("p")
        try vault.storeSeed(Seed.generate())
        #expect(throws: IdentityError.vaultExists(path: vault.url.path)) { try vault.storeSeed(Seed.generate()) }
    }

    @Test func missingVaultIsAClearError() {
        let vault = temporaryVault("p")
        #expect(throws: IdentityError.vaultMissing(path: vault.url.path)) { try vault.loadSeed() }
    }

    @Test func emptyPassphraseIsRejected() {
        let vault = temporaryVault("")
        #expect(throws: IdentityError.self) { try vault.storeSeed(Seed.generate()) }
        #expect(!vault.containsSeed)
    }

    @Test func tamperedHeaderOrCiphertextIsDetected() throws {
        let vault = temporaryVault("p")
        try vault.storeSeed(Seed.generate())
        let original = try Data(contentsOf: vault.url)
        for offset in [9, 20, 30, 50, 87] {
            var bytes = original
            bytes[offset] ^= 0x01
            try bytes.write(to: vault.url)
            #expect(throws: IdentityError.self) { try vault.loadSeed() }
        }
        try original.write(to: vault.url)
        _ = try vault.loadSeed()
    }

    @Test func truncatedOrForeignFilesAreCorrupt() throws {
        let vault = temporaryVault("p")
        try FileManager.default.createDirectory(at: vault.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a vault".utf8).write(to: vault.url)
        #expect {
            try vault.loadSeed()
        } throws: { error in
            if case IdentityError.vaultCorrupt = error { return true }
            return false
        }
        var forged = Data("KITHVLT1".utf8) + Data([0x01, 30, 8, 1]) + Data(count: 76)
        try forged.write(to: vault.url)
        #expect {
            try vault.loadSeed()
        } throws: { error in
            if case IdentityError.vaultCorrupt(_, let reason) = error { return reason.contains("bounds") }
            return false
        }
        forged[8] = 0x02
        try forged.write(to: vault.url)
        #expect(throws: IdentityError.self) { try vault.loadSeed() }
    }
}
