import KithMLS
import KithMLSConformance
import Testing

@Suite struct TLSReaderTests {
    @Test func deserializationVectorsPass() throws {
        let result = try VectorFiles.runAll(DeserializationVector.self, expectedCases: 14)
        #expect(result.skipped == 0)
    }

    @Test func rejectsReservedPrefix() {
        var reader = TLSReader([0xC0, 0, 0, 0, 0, 0, 0, 1])
        #expect(throws: MLSCodecError.invalidVarIntPrefix(offset: 0)) { try reader.readVarInt() }
    }

    @Test(arguments: [[UInt8]([0x40, 0x3F]), [0x80, 0x00, 0x3F, 0xFF], [0x40, 0x00], [0x80, 0, 0, 0]])
    func rejectsNonMinimalVarInt(bytes: [UInt8]) {
        var reader = TLSReader(bytes)
        #expect(throws: MLSCodecError.nonMinimalVarInt(offset: 0)) { try reader.readVarInt() }
    }

    @Test func rejectsTruncatedInput() {
        var reader = TLSReader([0x05, 1, 2])
        #expect(throws: MLSCodecError.self) { try reader.readOpaque() }
        var short = TLSReader([0x00, 0x01, 0x02])
        #expect(throws: MLSCodecError.truncated(offset: 0, needed: 1)) { try short.readUInt32() }
    }

    @Test func rejectsBadOptionalFlag() {
        var reader = TLSReader([0x02])
        #expect(throws: MLSCodecError.invalidOptionalFlag(offset: 0, value: 2)) { try reader.readOptional(of: CipherSuiteID.self) }
    }

    @Test func rejectsTrailingBytes() {
        #expect(throws: MLSCodecError.trailingBytes(count: 1)) { try CipherSuiteID(tlsEncoded: [0, 1, 9]) }
    }

    @Test func nestedVectorIsBounded() throws {
        // A two-element vector of uint16 followed by one more byte that the inner reader must not consume.
        var reader = TLSReader([0x04, 0x00, 0x01, 0x00, 0x03, 0x07])
        let suites = try reader.readVector(of: CipherSuiteID.self)
        #expect(suites.map(\.rawValue) == [1, 3])
        #expect(try reader.readUInt8() == 7)
        #expect(reader.isAtEnd)
    }

    @Test func vectorWithPartialElementFails() {
        var reader = TLSReader([0x03, 0x00, 0x01, 0x00])
        #expect(throws: MLSCodecError.self) { try reader.readVector(of: CipherSuiteID.self) }
    }

    @Test(arguments: [0, 1, 63, 64, 16383, 16384, 1 << 29, (1 << 30) - 1])
    func varIntRoundTrip(value: Int) throws {
        var writer = TLSWriter()
        writer.writeVarInt(value)
        var reader = TLSReader(writer.bytes)
        #expect(try reader.readVarInt() == value)
        #expect(reader.isAtEnd)
    }

    @Test func checkedVarIntRejectsTooLarge() {
        #expect(throws: MLSCodecError.varIntTooLarge(value: 1 << 30)) { try TLSWriter.checkedVarInt(1 << 30) }
    }
}
