import KithCanonical
import Crypto
import KithIdentity
import KithSync

/// Shared helpers for the KithSync tests.
enum Fixtures {
    /// 32 bytes `start, start+1, ...` (mod 256).
    static func bytes32(_ start: UInt8) -> [UInt8] { (0..<32).map { start &+ UInt8($0) } }

    static func feedID(_ start: UInt8) throws -> FeedID {
        try FeedID(rawBytes: bytes32(start))
    }

    /// A wire feed tag (the 32-byte slot of requests, offers and held ranges).
    static func feedTag(_ start: UInt8) throws -> SyncFeedTag {
        try SyncFeedTag(bytes: bytes32(start))
    }

    static func messageID(_ start: UInt8) throws -> SyncMessageID {
        try SyncMessageID(bytes: bytes32(start))
    }

    /// A pseudo-envelope of `length` bytes: JSON-like and compressible.
    static func envelope(_ length: Int, seed: Int = 0) -> [UInt8] {
        let pattern = Array("{\"author\":\"ed25519:abcdefghijkl\",\"sequence\":\(seed),\"content\":\"".utf8)
        var out: [UInt8] = []
        var state = UInt64(seed) &+ 0x9E37_79B9
        while out.count < length {
            out += pattern
            for _ in 0..<24 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                out.append(UInt8(ascii: "a") + UInt8(truncatingIfNeeded: state >> 59))
            }
        }
        return Array(out.prefix(length))
    }

    /// Incompressible bytes.
    static func randomBytes(_ length: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// ATT MTU → link frame size (payload = MTU − 3).
    static func payload(attMTU: Int) -> Int { attMTU - 3 }

    /// Alice holding messages `0..<count` of `feed` (bytes from `content`) and Bob holding none;
    /// both follow the feed.
    static func sources(sharing feed: FeedID, count: UInt32, content: (UInt32) -> [UInt8]) async -> (alice: InMemoryFeedSource, bob: InMemoryFeedSource) {
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for sequence in 0..<count { await alice.append(feed: feed, sequence: sequence, content: content(sequence)) }
        await alice.follow(feed)
        await bob.follow(feed)
        return (alice, bob)
    }
}
