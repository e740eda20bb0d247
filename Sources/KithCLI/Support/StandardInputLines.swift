import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal

/// Standard input as lines, read on a thread of its own (reading blocks).
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(64))
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
