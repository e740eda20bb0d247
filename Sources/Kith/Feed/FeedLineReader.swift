import Foundation
import KithFeed

/// Reads a feed file line by line in fixed-size chunks, so memory stays flat whatever the file's
/// size: the one reader behind `kith feed verify` and `kith feed import`.
///
/// Line rules (docs/FEED-FORMAT.md section 6, "Reading a feed file"): a line ends at LF, and one CR just
/// before it is dropped; **a line of zero bytes is not an entry** and is skipped (so a final
/// newline, or blank lines between entries, change nothing); a line longer than
/// `maxLineLength` is yielded without its bytes, with its length, so the caller rejects it as
/// `too_large` without ever holding it.
public struct FeedLineReader: Sequence, IteratorProtocol, Sendable {
    /// The longest line kept: an envelope's limit (`FeedLimits.maxEnvelopeBytes`).
    public let maxLineLength: Int
    /// The input's size in bytes when it is a regular file (for progress), else nil.
    public let totalBytes: Int?
    /// Bytes read so far.
    public private(set) var bytesRead = 0
    /// The read error that ended the input early, if one did.
    public private(set) var readError: (any Error)?

    private let handle: FileHandle
    private let chunkSize: Int
    private var chunk: [UInt8] = []
    private var position = 0
    private var line: [UInt8] = []
    private var lineLength = 0
    private var lineNumber = 0
    private var finished = false

    /// Reads from an open file handle.
    /// - Parameters:
    ///   - handle: the input (a file, a pipe, standard input).
    ///   - totalBytes: the input's size when known (progress only).
    ///   - maxLineLength: the longest line kept; longer ones are yielded as oversized.
    ///   - chunkSize: bytes read at a time.
    public init(handle: FileHandle, totalBytes: Int? = nil, maxLineLength: Int = FeedLimits.maxEnvelopeBytes, chunkSize: Int = 1 << 16) {
        self.handle = handle
        self.totalBytes = totalBytes
        self.maxLineLength = maxLineLength
        self.chunkSize = Swift.max(1, chunkSize)
    }

    /// Opens a file, or standard input for `-`.
    /// - Throws: ``KithError/input(_:)`` with ``InputError/file(path:reason:)`` when the file cannot be opened.
    public static func open(path: String, maxLineLength: Int = FeedLimits.maxEnvelopeBytes) throws(KithError) -> FeedLineReader {
        if path == "-" { return FeedLineReader(handle: .standardInput, maxLineLength: maxLineLength) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .input(.file(path: path, reason: "no such file"))
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw .input(.file(path: path, reason: "not a readable file"))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        return FeedLineReader(handle: handle, totalBytes: size, maxLineLength: maxLineLength)
    }

    /// The next non-empty line, or nil at the end of the input.
    public mutating func next() -> FeedLine? {
        while true {
            if position == chunk.count {
                guard !finished, refill() else { return finishLastLine() }
            }
            // Scan the chunk for the end of the line.
            let start = position
            var end = start
            while end < chunk.count, chunk[end] != 0x0A { end += 1 }
            append(chunk[start..<end])
            if end == chunk.count {
                position = end
                continue
            }
            position = end + 1
            lineNumber += 1
            if let line = takeLine() { return line }
        }
    }

    /// Keeps what fits of a line's bytes and counts the rest.
    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        lineLength += bytes.count
        let room = maxLineLength + 1 - line.count  // one more, for a CR that may be dropped
        if room > 0 { line.append(contentsOf: bytes.prefix(room)) }
    }

    /// The line just ended (nil for a line of zero bytes), and resets for the next one.
    private mutating func takeLine() -> FeedLine? {
        defer {
            line.removeAll(keepingCapacity: true)
            lineLength = 0
        }
        var length = lineLength
        // The whole line was kept (it is at most one byte over the limit): drop a final CR.
        if length == line.count, line.last == 0x0D {
            line.removeLast()
            length -= 1
        }
        if length == 0 { return nil }
        if length > maxLineLength { return FeedLine(number: lineNumber, bytes: [], oversizedLength: length) }
        return FeedLine(number: lineNumber, bytes: line)
    }

    /// The last line when the input does not end with a newline.
    private mutating func finishLastLine() -> FeedLine? {
        guard lineLength > 0 else { return nil }
        lineNumber += 1
        return takeLine()
    }

    /// Reads the next chunk; false at the end of the input or on a read error.
    private mutating func refill() -> Bool {
        do {
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else {
                finished = true
                return false
            }
            chunk = Array(data)
            position = 0
            bytesRead += data.count
            return true
        } catch {
            readError = error
            finished = true
            return false
        }
    }
}
