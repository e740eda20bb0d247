import KithMLS
/// One case of an official MLS test-vector file (`mlswg/mls-implementations` format), decodable from its JSON object.
///
/// Decoding is left to the caller (tests and `kith-vectors` use Foundation's `JSONDecoder`); the library only checks.
public protocol ConformanceVector: Decodable, Sendable {
    /// The vector file name, e.g. `crypto-basics.json`.
    static var fileName: String { get }
    /// Runs every check of the case.
    func check() -> VectorOutcome
}

/// A mismatch found while checking a vector case.
public struct ConformanceMismatch: Error, Sendable, CustomStringConvertible {
    /// What differed.
    public var description: String

    /// Describes a mismatch.
    public init(_ description: String) { self.description = description }
}

/// Helpers for writing vector checks.
public enum Conformance {
    /// Throws a mismatch naming `field` unless the two byte strings are equal.
    public static func expectEqual(_ field: String, _ actual: [UInt8], _ expected: [UInt8]) throws {
        guard actual == expected else {
            throw ConformanceMismatch("\(field): got \(HexString.encode(actual)), expected \(HexString.encode(expected))")
        }
    }

    /// Throws a mismatch naming `field` unless the two values are equal.
    public static func expectEqual<T: Equatable>(_ field: String, _ actual: T, _ expected: T) throws {
        guard actual == expected else { throw ConformanceMismatch("\(field): got \(actual), expected \(expected)") }
    }

    /// Throws a mismatch naming `field` unless `condition` holds.
    public static func expect(_ condition: Bool, _ field: String) throws {
        guard condition else { throw ConformanceMismatch(field) }
    }

    /// Runs `body`, mapping success to ``VectorOutcome/passed`` and any error to ``VectorOutcome/failed(_:)``.
    public static func run(_ body: () throws -> Void) -> VectorOutcome {
        do {
            try body()
            return .passed
        } catch {
            return .failed("\(error)")
        }
    }

    /// Runs `body` for a suite, skipping suites swift-crypto cannot run.
    public static func run(suite: UInt16, _ body: (CipherSuite) throws -> Void) -> VectorOutcome {
        let cipherSuite: CipherSuite
        do {
            cipherSuite = try CipherSuite(rawValue: suite)
        } catch {
            return .skipped("\(error)")
        }
        return run { try body(cipherSuite) }
    }
}
