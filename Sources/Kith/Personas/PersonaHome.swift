import Foundation
import KithIdentity

/// Where one persona lives on disk (`HOME/personas/<local id>/`) and how its files are destroyed.
enum PersonaHome {
    /// The length of a local id: 16 random bytes as lowercase hex.
    static let localIDLength = 32

    /// A fresh random local id (unrelated to any key or feed id).
    static func newLocalID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// True for text that can be a local id (so an id from the command line never names a path outside `personas/`).
    static func isLocalID(_ text: String) -> Bool {
        text.utf8.count == localIDLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func home(_ main: AccountHome, id: String) -> AccountHome {
        AccountHome(personaDirectory: main.personasDirectory.appendingPathComponent(id, isDirectory: true))
    }

    static func seedURL(_ home: AccountHome) -> URL { home.directory.appendingPathComponent("persona.sealed") }

    /// Overwrites every regular file under `directory` with zeros (synced), then removes the directory. Best effort
    /// against what the file system keeps (journal, copy-on-write, SSD remapping): docs/GROUPS.md, "Personas at rest".
    static func erase(_ directory: URL) throws(KithError) {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory.path) else { return }
        if let walker = manager.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) {
            for case let file as URL in walker {
                guard let values = try? file.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                      values.isRegularFile == true, let size = values.fileSize, size > 0,
                      let handle = try? FileHandle(forWritingTo: file) else { continue }
                let chunk = Data(count: min(size, 1 << 16))
                var written = 0
                while written < size {
                    let count = min(chunk.count, size - written)
                    do { try handle.write(contentsOf: chunk.prefix(count)) } catch { break }
                    written += count
                }
                try? handle.synchronize()
                try? handle.close()
            }
        }
        do {
            try manager.removeItem(at: directory)
        } catch {
            throw .fileSystem(path: directory.path, reason: error.localizedDescription)
        }
    }
}
