import Foundation

/// Where a backup writer puts bytes: a file, a pipe, memory.
public protocol BackupOutput {
    /// Appends `bytes`.
    mutating func write(_ bytes: [UInt8]) throws(BackupError)
}

/// Where a backup reader takes bytes from.
public protocol BackupInput {
    /// Returns up to `count` bytes; an empty array means the end of the input.
    mutating func read(upTo count: Int) throws(BackupError) -> [UInt8]
}

/// A growing byte array, for tests and vectors.
public struct ByteArrayBackupOutput: BackupOutput, Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    /// An empty output.
    public init() {}
    /// Appends `bytes`.
    public mutating func write(_ bytes: [UInt8]) throws(BackupError) { self.bytes += bytes }
}

/// Reads from a byte array, for tests and vectors.
public struct ByteArrayBackupInput: BackupInput, Sendable {
    private let bytes: [UInt8]
    private var offset = 0
    /// Reads `bytes` from the start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// Returns up to `count` bytes.
    public mutating func read(upTo count: Int) throws(BackupError) -> [UInt8] {
        let end = min(bytes.count, offset + count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Writes to an open `FileHandle` (the caller closes it).
public struct FileHandleBackupOutput: BackupOutput {
    private let handle: FileHandle
    /// Writes to `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }
    /// Appends `bytes`.
    public mutating func write(_ bytes: [UInt8]) throws(BackupError) {
        do { try handle.write(contentsOf: bytes) } catch { throw .io("write failed: \(error.localizedDescription)") }
    }
}

/// Reads from an open `FileHandle` (the caller closes it).
public struct FileHandleBackupInput: BackupInput {
    private let handle: FileHandle
    /// Reads from `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }
    /// Returns up to `count` bytes.
    public mutating func read(upTo count: Int) throws(BackupError) -> [UInt8] {
        do { return try handle.read(upToCount: count).map { Array($0) } ?? [] } catch {
            throw .io("read failed: \(error.localizedDescription)")
        }
    }
}
