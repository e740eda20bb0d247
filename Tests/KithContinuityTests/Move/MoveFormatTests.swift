import KithCanonical
import Testing
@testable import KithContinuity

/// The move code, the move messages and the keys of a move (docs/CONTINUITY.md, section 7).
@Suite struct MoveFormatTests {
    static let key = [UInt8](repeating: 0x11, count: 32)
    static let secret = [UInt8](repeating: 0x22, count: 32)

    @Test func aCodeRoundTripsThroughItsText() throws {
        let code = try MoveCode(host: "192.168.1.20", port: 7460, receiverStaticKey: Self.key, secret: Self.secret)
        #expect(code.text.hasPrefix("kithmove1."))
        #expect(try MoveCode(text: "  \(code.text)\n") == code)
    }

    @Test func malformedCodesAreRefusedWithATypedError() throws {
        let good = try MoveCode(host: "10.0.0.1", port: 1, receiverStaticKey: Self.key, secret: Self.secret)
        let payload = try Base64URL.decode(String(good.text.dropFirst(MoveCode.prefix.count)))
        let cases: [String] = [
            "",
            "kithmove2.\(Base64URL.encode(payload))",
            "kithmove1.!!!",
            MoveCode.prefix + Base64URL.encode(payload.dropLast()),
            MoveCode.prefix + Base64URL.encode(payload + [0]),
            MoveCode.prefix + Base64URL.encode([0x04] + payload.dropFirst()),
            MoveCode.prefix + String(repeating: "A", count: MoveLimits.maximumCodeCharacters),
            // A host byte outside the allowed set (a space).
            MoveCode.prefix + Base64URL.encode(payload.prefix(4) + [0x20] + payload.dropFirst(5)),
            // Port 0.
            MoveCode.prefix + Base64URL.encode([0x01, 0, 0] + payload.dropFirst(3)),
        ]
        for text in cases {
            #expect(throws: MoveError.self, "\(text)") { _ = try MoveCode(text: text) }
        }
        #expect(throws: MoveError.self) { _ = try MoveCode(host: "", port: 1, receiverStaticKey: Self.key, secret: Self.secret) }
        #expect(throws: MoveError.self) { _ = try MoveCode(host: "a b", port: 1, receiverStaticKey: Self.key, secret: Self.secret) }
        #expect(throws: MoveError.self) { _ = try MoveCode(host: "h", port: 1, receiverStaticKey: [1], secret: Self.secret) }
    }

    @Test func aRelayCodeRoundTripsAndNamesOnlyItsJoinCode() throws {
        let code = try MoveCode(relayJoinCode: "12345678", receiverStaticKey: Self.key, secret: Self.secret)
        #expect(code.route == .relay(joinCode: "12345678", server: nil))
        #expect(code.host.isEmpty && code.port == 0)
        let payload = try Base64URL.decode(String(code.text.dropFirst(MoveCode.prefix.count)))
        #expect(payload == [MoveCode.relayVersion, 8] + Array("12345678".utf8) + Self.key + Self.secret)
        #expect(try MoveCode(text: code.text) == code)
        let longest = try MoveCode(relayJoinCode: String(repeating: "a-_Z9", count: 12) + "abcd", receiverStaticKey: Self.key, secret: Self.secret)
        #expect(try MoveCode(text: longest.text) == longest)
        let direct = try MoveCode(host: "127.0.0.1", port: 9, receiverStaticKey: Self.key, secret: Self.secret)
        #expect(direct.route == .direct(host: "127.0.0.1", port: 9))
    }

    @Test func malformedRelayCodesAreRefusedWithATypedError() throws {
        let good = try MoveCode(relayJoinCode: "12345678", receiverStaticKey: Self.key, secret: Self.secret)
        let payload = try Base64URL.decode(String(good.text.dropFirst(MoveCode.prefix.count)))
        let keys = Self.key + Self.secret
        let cases: [[UInt8]] = [
            [MoveCode.relayVersion],
            Array(payload.dropLast()),
            payload + [0],
            // A join code byte outside the alphabet (a dot), too short, too long, a length past the end.
            [MoveCode.relayVersion, 8] + Array("1234.678".utf8) + keys,
            [MoveCode.relayVersion, 5] + Array("12345".utf8) + keys,
            [MoveCode.relayVersion, 65] + [UInt8](repeating: UInt8(ascii: "1"), count: 65) + keys,
            [MoveCode.relayVersion, 255] + Array("12345678".utf8) + keys,
            // A non-UTF-8 byte in the join code.
            [MoveCode.relayVersion, 8] + [0xFF] + Array("1234567".utf8) + keys,
        ]
        for bytes in cases {
            #expect(throws: MoveError.self, "\(bytes.prefix(12))") { _ = try MoveCode(text: MoveCode.prefix + Base64URL.encode(bytes)) }
        }
        for joinCode in ["", "12345", String(repeating: "1", count: 65), "1234 5678", "12345678é"] {
            #expect(throws: MoveError.self, "\(joinCode)") {
                _ = try MoveCode(relayJoinCode: joinCode, receiverStaticKey: Self.key, secret: Self.secret)
            }
        }
        #expect(throws: MoveError.self) { _ = try MoveCode(relayJoinCode: "12345678", receiverStaticKey: [1], secret: Self.secret) }
    }

    @Test func aRelayCodeCanNameItsServerSoTheOldDeviceNeedsOnlyTheCode() throws {
        let server = "https://relay.example.org:7460"
        let code = try MoveCode(relayJoinCode: "12345678", server: server, receiverStaticKey: Self.key, secret: Self.secret)
        #expect(code.route == .relay(joinCode: "12345678", server: server))
        let payload = try Base64URL.decode(String(code.text.dropFirst(MoveCode.prefix.count)))
        #expect(payload == [MoveCode.relayWithServerVersion, 8] + Array("12345678".utf8) + [UInt8(server.utf8.count)] + Array(server.utf8) + Self.key + Self.secret)
        #expect(try MoveCode(text: code.text) == code)
        // The longest join code with the longest URL still fits the text bound (and a QR code).
        let longestURL = "http://" + String(repeating: "a", count: MoveLimits.maximumServerURLBytes - 7)
        let longest = try MoveCode(
            relayJoinCode: String(repeating: "1", count: MoveLimits.maximumJoinCodeBytes), server: longestURL, receiverStaticKey: Self.key, secret: Self.secret)
        #expect(longest.text.utf8.count <= MoveLimits.maximumCodeCharacters)
        #expect(try MoveCode(text: longest.text) == longest)
        #expect(!code.namesLoopbackServer)
        #expect(MoveCode.canCarry(serverURL: server))
        for loopback in ["http://127.0.0.1:7460", "http://localhost:7460", "http://[::1]:7460/", "http://LOCALHOST:1"] {
            #expect(try MoveCode(relayJoinCode: "12345678", server: loopback, receiverStaticKey: Self.key, secret: Self.secret).namesLoopbackServer)
        }
        // Every character a URL needs survives.
        let busy = "http://[::1]:7460/kith/?a=b&c=%20d#e~f_g-h!$()*+,;@"
        #expect(try MoveCode(text: try MoveCode(relayJoinCode: "12345678", server: busy, receiverStaticKey: Self.key, secret: Self.secret).text).route
            == .relay(joinCode: "12345678", server: busy))
    }

    @Test func aServerURLThatIsNotAPrintableWebAddressIsRefused() throws {
        let keys = Self.key + Self.secret
        let hostile = [
            "ftp://relay.example", "file:///etc/passwd", "relay.example:7460", "http://a", "http://" + String(repeating: "a", count: 194),
            "http://relay.example/\u{1B}[2J", "http://relay example", "http://relay.example/\"quoted\"", "http://relay.example/<b>",
            "http://rélay.example", "http://relay.example/\n",
        ]
        for url in hostile {
            #expect(throws: MoveError.self, "\(url)") {
                _ = try MoveCode(relayJoinCode: "12345678", server: url, receiverStaticKey: Self.key, secret: Self.secret)
            }
            #expect(!MoveCode.canCarry(serverURL: url), "\(url)")
            // The same bytes in a code are refused by the parser too.
            let bytes = Array(url.utf8)
            if bytes.count <= 255 {
                let head: [UInt8] = [MoveCode.relayWithServerVersion, 8] + Array("12345678".utf8) + [UInt8(bytes.count)]
                let text = MoveCode.prefix + Base64URL.encode(head + bytes + keys)
                #expect(throws: MoveError.self, "\(url)") { _ = try MoveCode(text: text) }
            }
        }
        // A URL length past the end, and a code cut inside the URL.
        let good = Array("https://relay.example".utf8)
        let head: [UInt8] = [MoveCode.relayWithServerVersion, 8] + Array("12345678".utf8)
        let cases: [[UInt8]] = [head + [255] + good + keys, head + [UInt8(good.count)] + Array(good.prefix(5)), head]
        for bytes in cases {
            #expect(throws: MoveError.self, "\(bytes.count)") { _ = try MoveCode(text: MoveCode.prefix + Base64URL.encode(bytes)) }
        }
    }

    @Test func messagesRoundTripAndHostileOnesAreRefused() throws {
        let messages: [MoveMessage] = [
            .proof(Self.secret), .accepted, .begin(totalBytes: 12), .data([1, 2, 3]), .end, .done(ownHead: 7), .refused("no"),
        ]
        for message in messages { #expect(try MoveMessage(decoding: message.encoded) == message) }
        var huge = ByteWriter()
        huge.write(UInt8(0x03))
        huge.write(MoveLimits.maximumStreamBytes + 1)
        #expect(throws: MoveError.oversize("the stream announces \(MoveLimits.maximumStreamBytes + 1) bytes, more than \(MoveLimits.maximumStreamBytes)")) {
            _ = try MoveMessage(decoding: huge.bytes)
        }
        for bad: [UInt8] in [[], [0x01, 1, 2], [0x02, 0], [0x04], [0x06, 1], [0x99], [0x07] + [UInt8](repeating: 0x41, count: 201)] {
            #expect(throws: MoveError.self, "\(bad)") { _ = try MoveMessage(decoding: bad) }
        }
        // A refusal's control characters cannot reach a terminal.
        #expect(try MoveMessage(decoding: [0x07, 0x1B, 0x5B, 0x41]) == .refused("?[A"))
    }

    @Test func keysBindTheProofToTheLinkAndCompareInConstantTime() {
        let one = MoveKeys(secret: Self.secret, handshakeHash: [UInt8](repeating: 1, count: 32))
        let two = MoveKeys(secret: Self.secret, handshakeHash: [UInt8](repeating: 2, count: 32))
        let other = MoveKeys(secret: Self.key, handshakeHash: [UInt8](repeating: 1, count: 32))
        #expect(one.accepts(proof: one.proof))
        #expect(!one.accepts(proof: two.proof))
        #expect(!one.accepts(proof: other.proof))
        #expect(!one.accepts(proof: Array(one.proof.prefix(31))))
        #expect(one.streamKey != two.streamKey)
        #expect(one.confirmation.count == MoveLimits.confirmationDigits)
        #expect(one.confirmation.allSatisfy { $0.isNumber })
    }
}
