import Foundation
import KithCanonical

/// Locates the repository, its published `TestVectors/` and the official vectors the tests use.
///
/// The official (third-party) vectors are vendored in `Tests/Vectors/` with their origins and
/// licenses in `Tests/Vectors/SOURCES.md`, so the tests need nothing beside the clone.
public enum TestPaths {
    /// The repository root (the folder holding `Package.swift`).
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// Kith's own published vectors.
    public static var kithVectors: URL { repositoryRoot.appendingPathComponent("TestVectors") }

    /// The vendored official vectors (`Tests/Vectors/`).
    public static var officialVectors: URL { repositoryRoot.appendingPathComponent("Tests/Vectors") }

    /// The one place a published-vector test touches its file: with `KITH_WRITE_VECTORS=1` it
    /// (re)writes `generated` plus a newline to `url`; then it returns the file's bytes without
    /// the trailing newline, for the test to compare with what this implementation generates.
    public static func publishedVector(at url: URL, generated: [UInt8]) throws -> [UInt8] {
        if ProcessInfo.processInfo.environment["KITH_WRITE_VECTORS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(generated + [0x0A]).write(to: url)
        }
        var bytes = Array(try Data(contentsOf: url))
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }

    /// Reads a file under the vendored official vectors (`Tests/Vectors/`).
    public static func officialVector(_ relativePath: String) throws -> Data {
        try Data(contentsOf: officialVectors.appendingPathComponent(relativePath))
    }

    /// Decodes a lowercase or uppercase hex string; returns nil for malformed input.
    public static func hex(_ text: String) -> [UInt8]? { Hex.decode(text) }

    /// Lowercase hex of bytes.
    public static func hexString<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 { Hex.encode(bytes) }
}
