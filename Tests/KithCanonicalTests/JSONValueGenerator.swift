import KithCanonical
import PropertyBased

/// Random `JSONValue` trees for property tests, covering awkward strings and key orders.
enum JSONValueGenerator {
    /// Random trees (each test case draws a fresh seed; trees are not shrunk).
    static let tree = Generator<JSONValue, Shrink.None<JSONValue>>(run: { rng in
        var source = SplitMix64(seed: rng.next())
        return randomValue(depth: 0, using: &source)
    })

    /// Random strings mixing ASCII, controls, escapes-needing bytes, BMP and non-BMP scalars.
    static let string = Generator<String, Shrink.None<String>>(run: { rng in
        var source = SplitMix64(seed: rng.next())
        return randomString(using: &source)
    })

    /// A seed, for tests that need their own deterministic randomness.
    static let seed = Generator<UInt64, Shrink.None<UInt64>>(run: { rng in rng.next() })

    static func randomValue(depth: Int, using source: inout SplitMix64) -> JSONValue {
        let kind = source.next(below: depth >= 5 ? 4 : 6)
        switch kind {
        case 0: return .null
        case 1: return .bool(source.next(below: 2) == 0)
        case 2: return .integer(randomInteger(using: &source))
        case 3: return .string(randomString(using: &source))
        case 4:
            let count = source.next(below: 5)
            return .array((0..<count).map { _ in randomValue(depth: depth + 1, using: &source) })
        default:
            let count = source.next(below: 6)
            var object = JSONObject()
            for _ in 0..<count {
                object[randomString(using: &source)] = randomValue(depth: depth + 1, using: &source)
            }
            return .object(object)
        }
    }

    static func randomInteger(using source: inout SplitMix64) -> Int64 {
        switch source.next(below: 4) {
        case 0: return Int64(source.next(below: 21)) - 10
        case 1: return [JSONLimits.maxSafeInteger, -JSONLimits.maxSafeInteger, 0, 1 << 31, -(1 << 32)][source.next(below: 5)]
        default:
            let magnitude = Int64(truncatingIfNeeded: source.next() % UInt64(JSONLimits.maxSafeInteger + 1))
            return source.next(below: 2) == 0 ? magnitude : -magnitude
        }
    }

    static let interestingScalars: [UnicodeScalar] = [
        "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{B}", "\u{C}", "\r", "\u{1F}", "\"", "\\", "/", "\u{7F}", "\u{80}",
        "\u{C5}", "\u{301}", "\u{30A}", "\u{2028}", "\u{D7FF}", "\u{E000}", "\u{FB33}", "\u{FEFF}", "\u{FFFD}",
        "\u{FFFF}", "\u{10000}", "\u{1F602}", "\u{10FFFF}", "A", "a", "e", "0",
    ]

    static func randomString(using source: inout SplitMix64) -> String {
        let length = source.next(below: 9)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            switch source.next(below: 4) {
            case 0:
                scalars.append(interestingScalars[source.next(below: interestingScalars.count)])
            case 1:
                let value = UInt32(source.next(below: 0x11_0000))
                scalars.append(UnicodeScalar(value) ?? "\u{FFFD}")
            default:
                scalars.append(UnicodeScalar(UInt8(0x20 + source.next(below: 0x5F))))
            }
        }
        return String(scalars)
    }
}


