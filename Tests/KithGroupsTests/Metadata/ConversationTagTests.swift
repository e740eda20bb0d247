import KithConvos
import Testing

@testable import KithGroups

/// Replays a fixed list of 64-bit words.
private struct ScriptedGenerator: RandomNumberGenerator {
    var words: [UInt64]
    var index = 0
    mutating func next() -> UInt64 {
        defer { index += 1 }
        return words[index % words.count]
    }
}

/// Emits the bytes 0, 1, …, 255, 0, 1, … in order, one per word (in its low byte).
private struct CountingGenerator: RandomNumberGenerator {
    var byte: UInt8 = 0
    mutating func next() -> UInt64 {
        defer { byte &+= 1 }
        return UInt64(byte)
    }
}

@Suite struct ConversationTagTests {
    @Test func acceptsExactlyTenAlphanumerics() throws {
        for text in ["abcdeABCDE", "0123456789", "Zz09Zz09Zz"] {
            #expect(try ConversationTag(text).string == text)
        }
    }

    @Test func rejectsEverythingElse() {
        for text in ["", "abcdeABCD", "abcdeABCDEF", "abcde-BCDE", "abcde ABCD", "abcdéABCDE", "abcde_BCDE", "zlibFixtureTag"] {
            #expect(throws: ConversationMetadataError.invalidTag(text)) { try ConversationTag(text) }
        }
    }

    @Test func randomTagsFollowTheRule() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let tag = ConversationTag.random()
            #expect(ConversationTag.isValid(tag.string))
            seen.insert(tag.string)
        }
        #expect(seen.count == 200)
    }

    @Test func bytesFrom248UpAreRedrawn() {
        // 255, 248, 249 are redrawn; 61 → '9', 62 → 'A', 247 → 247 % 62 = 61 → '9', 0 → 'A', 1 → 'B', 2 → 'C'.
        var generator = ScriptedGenerator(words: [255, 61, 62, 247, 248, 249, 0, 1, 2, 61, 62, 247, 248, 0])
        let tag = ConversationTag.random(using: &generator)
        #expect(tag.string == "9A9ABC9A9A")
    }

    @Test func everyCharacterIsEquallyLikely() {
        // Over whole cycles of the 256 byte values, rejection sampling takes 248 = 4 × 62 of them: each of the 62
        // characters exactly 4 times per cycle. (A plain `byte % 62` would give A–H five times and the rest four.)
        var generator = CountingGenerator()
        var counts: [Character: Int] = [:]
        for _ in 0..<124 {  // 1,240 characters = 5 cycles of 248
            for character in ConversationTag.random(using: &generator).string { counts[character, default: 0] += 1 }
        }
        #expect(counts.count == 62)
        #expect(Set(counts.values) == [20])
    }
}
