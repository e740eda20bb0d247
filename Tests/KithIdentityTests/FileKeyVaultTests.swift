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
        #expect(file.count == KeyVaultFile.fileLength)
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

    /// Opening a vault costs at most what Kith writes (issue 11 item 6): a header asking for more
    /// is corrupt, refused before scrypt runs.
    @Test(arguments: [(16, 8, 1), (15, 8, 2), (15, 16, 1), (20, 1, 1), (17, 4, 1)])
    func costlierScryptParametersThanKithWritesAreCorrupt(log2N: Int, r: Int, p: Int) throws {
        let vault = temporaryVault("p")
        try vault.storeSeed(Seed.generate())
        var bytes = try Data(contentsOf: vault.url)
        bytes[9] = UInt8(log2N)
        bytes[10] = UInt8(r)
        bytes[11] = UInt8(p)
        try bytes.write(to: vault.url)
        #expect {
            try vault.loadSeed()
        } throws: { error in
            guard case IdentityError.vaultCorrupt(_, let reason) = error else { return false }
            return reason.contains("scrypt parameters")
        }
    }

    @Test func theCostBoundIsKithsOwnDefault() throws {
        #expect(ScryptParameters.interactive.isWithinBounds)
        #expect(ScryptParameters.testing.isWithinBounds)
        #expect(ScryptParameters.interactive.costBytes == ScryptParameters.maximumCostBytes)
        #expect(ScryptParameters(log2N: 17, blockSize: 2, parallelism: 1).isWithinBounds)
        // The review's header: 2.1 GB and a minute before "wrong passphrase".
        #expect(!ScryptParameters(log2N: 20, blockSize: 16, parallelism: 4).isWithinBounds)
        #expect(!ScryptParameters(log2N: 9, blockSize: 8, parallelism: 1).isWithinBounds)
        #expect(!ScryptParameters(log2N: 15, blockSize: 0, parallelism: 1).isWithinBounds)
        #expect(!ScryptParameters(log2N: 15, blockSize: 8, parallelism: 0).isWithinBounds)
        #expect(!ScryptParameters(log2N: 255, blockSize: 255, parallelism: 255).isWithinBounds)
        // Kith's own default still opens.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kith-vault-\(UUID().uuidString)/identity.vault")
        let vault = FileKeyVault(url: url, parameters: .interactive, passphrase: { "p" })
        try vault.storeSeed(Seed.generate())
        _ = try vault.loadSeed()
        // Nor does Kith write a vault it would refuse to open.
        let costly = FileKeyVault(url: url.deletingLastPathComponent().appendingPathComponent("other.vault"),
                                  parameters: ScryptParameters(log2N: 16, blockSize: 8, parallelism: 1), passphrase: { "p" })
        #expect(throws: IdentityError.self) { try costly.storeSeed(Seed.generate()) }
        #expect(!costly.containsSeed)
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
