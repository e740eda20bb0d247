import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity

extension RecoveryCommand {
    /// `kith recovery combine RELEASE... [--into DIR]` (on the new device).
    struct Combine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "On the new device: rebuild the lost identity from guardians' releases (into a new home with --into).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The release texts the guardians gave you.")
        var releases: [String]

        @Option(help: "An empty directory to write the rebuilt identity's home into (seed sealed under a new passphrase).")
        var into: String?

        func run() async throws {
            try await Output.run {
                var parsed: [RecoveryRelease] = []
                for text in releases {
                    do throws(RecoveryError) { parsed.append(try RecoveryRelease(text: text)) } catch { throw KithError.recovery(error) }
                }
                let account = try await openAccount(global)
                let recovered = try await account.recovery.rebuild(from: parsed)
                if let into { try await Self.writeHome(recovered, into: AccountHome(directory: URL(fileURLWithPath: into))) }
                if global.json {
                    var object = JSONObject()
                    object["feed_id"] = .string(recovered.identity.feedID.string)
                    object["rotated"] = .bool(recovered.keySeeds != nil)
                    if let into { object["home"] = .string(into) }
                    Output.json(.object(object))
                    return
                }
                Output.line("Rebuilt the identity \(recovered.identity.feedID.string).")
                if let into {
                    Output.line("Its home is \(into): restore a backup there, or sync with contacts to get the feed back.")
                } else {
                    Output.line("Nothing was written: run again with --into DIR to write its home.")
                }
            }
        }

        /// Seals the recovered seed in `home`'s vault (and the rotated key seeds beside it), then opens the home once
        /// (which makes its database) and writes its public.json.
        static func writeHome(_ recovered: RecoveredIdentity, into home: AccountHome) async throws {
            let vault = FileKeyVault(url: home.vaultURL, passphrase: { () throws(IdentityError) -> String in
                try PassphraseSource.obtain(prompt: "New passphrase for the rebuilt identity: ", confirm: true)
            })
            guard !vault.containsSeed else { throw KithError.vault(.vaultExists(path: home.vaultURL.path)) }
            do {
                try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
            } catch {
                throw KithError.fileSystem(path: home.directory.path, reason: "\(error)")
            }
            do throws(IdentityError) { try vault.storeSeed(recovered.deviceSeed) } catch { throw KithError.vault(error) }
            if let keySeeds = recovered.keySeeds {
                let sealed: [UInt8]
                do throws(IdentityError) { sealed = try keySeeds.sealed(deviceSeed: recovered.deviceSeed) } catch { throw KithError.identity(error) }
                try write(sealed, to: home.rotatedKeysURL)
            }
            let account = try await Account.open(home: home, passphrase: { () throws(IdentityError) -> String in
                try PassphraseSource.obtain(prompt: "Passphrase of the rebuilt identity (again, to open it): ")
            })
            try write(CanonicalJSON.serialize(account.publicKeysJSON) + [0x0A], to: home.publicKeysURL)
        }

        private static func write(_ bytes: [UInt8], to url: URL) throws {
            do {
                try Data(bytes).write(to: url, options: .atomic)
            } catch {
                throw KithError.fileSystem(path: url.path, reason: "\(error)")
            }
        }
    }
}
