import KithCanonical
import PropertyBased
import Testing

/// The bounded big-endian cursor and its writer.
@Suite struct ByteReaderTests {
    @Test func readsBigEndianIntegers() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F])
        #expect(try reader.readUInt8() == 0x01)
        #expect(try reader.readUInt16() == 0x0203)
        #expect(try reader.readUInt32() == 0x0405_0607)
        #expect(try reader.readUInt64() == 0x0809_0A0B_0C0D_0E0F)
        #expect(reader.isAtEnd)
        #expect(reader.remaining == 0)
        try reader.expectEnd()
    }

    @Test func readsBytesAndRemainder() throws {
        var reader = ByteReader([1, 2, 3, 4, 5][1...])
        #expect(try reader.readBytes(2) == [2, 3])
        #expect(reader.offset == 2)
        #expect(try reader.readBytes(0) == [])
        #expect(reader.readRemaining() == [4, 5])
        #expect(reader.readRemaining() == [])
        #expect(reader.isAtEnd)
    }

    @Test func truncationIsReportedNotTrapped() throws {
        var reader = ByteReader([0xAA, 0xBB, 0xCC])
        #expect(throws: ByteReaderError.truncated(needed: 4, available: 3, offset: 0)) { try reader.readUInt32() }
        #expect(try reader.readUInt16() == 0xAABB)
        #expect(throws: ByteReaderError.truncated(needed: 2, available: 1, offset: 2)) { try reader.readUInt16() }
        #expect(throws: ByteReaderError.truncated(needed: 8, available: 1, offset: 2)) { try reader.readUInt64() }
        #expect(throws: ByteReaderError.truncated(needed: 5, available: 1, offset: 2)) { try reader.readBytes(5) }
        #expect(reader.offset == 2)
        #expect(try reader.readUInt8() == 0xCC)
        #expect(throws: ByteReaderError.truncated(needed: 1, available: 0, offset: 3)) { try reader.readUInt8() }
    }

    @Test func negativeLengthIsRejected() {
        var reader = ByteReader([1, 2, 3])
        #expect(throws: ByteReaderError.self) { try reader.readBytes(-1) }
        #expect(reader.offset == 0)
    }

    @Test func trailingBytesAreReported() throws {
        var reader = ByteReader([1, 2, 3])
        _ = try reader.readUInt8()
        #expect(throws: ByteReaderError.trailingBytes(count: 2, offset: 1)) { try reader.expectEnd() }
    }

    @Test func errorsDescribeThemselves() {
        #expect(ByteReaderError.truncated(needed: 4, available: 1, offset: 7).description.contains("offset 7"))
        #expect(ByteReaderError.trailingBytes(count: 2, offset: 1).description.contains("2"))
    }

    @Test func writerProducesBigEndian() {
        var writer = ByteWriter(capacity: 16)
        writer.write(UInt8(0x01))
        writer.write(UInt16(0x0203))
        writer.write(UInt32(0x0405_0607))
        writer.write(UInt64(0x0809_0A0B_0C0D_0E0F))
        writer.write(bytes: [0x10, 0x11])
        #expect(writer.bytes == Array(1...17))
    }

    @Test func writerAndReaderRoundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...4), Gen.uint16(), Gen.uint32(), Gen.uint64()) { raw, a, b, c in
            var writer = ByteWriter()
            writer.write(a)
            writer.write(bytes: raw)
            writer.write(b)
            writer.write(c)
            var reader = ByteReader(writer.bytes)
            #expect((try? reader.readUInt16()) == a)
            #expect((try? reader.readBytes(raw.count)) == raw)
            #expect((try? reader.readUInt32()) == b)
            #expect((try? reader.readUInt64()) == c)
            #expect(reader.isAtEnd)
        }
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([9, 8][0...], [9, 8]))
    }
}
