/// The properties fuzz targets check on inputs a decoder accepted.
public enum FuzzProperty {
    /// Stops the process when `condition` does not hold, so that libFuzzer records the input as a
    /// crash (and the replay test fails, naming the target and the file).
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fatalError("fuzz property broken: \(message())", file: file, line: line) }
    }

    /// The input split into at most `maximumParts` parts at each occurrence of a two-byte
    /// separator (`0xFE 0xED`), so that one input can drive a sequence of messages.
    public static func parts(of input: [UInt8], maximumParts: Int = 64) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < input.count {
            if index + 1 < input.count, input[index] == 0xFE, input[index + 1] == 0xED, parts.count < maximumParts - 1 {
                parts.append(current)
                current = []
                index += 2
            } else {
                current.append(input[index])
                index += 1
            }
        }
        parts.append(current)
        return parts
    }

    /// The input as text when it is valid UTF-8, else nil (decoders of text formats take `String`).
    public static func text(_ input: [UInt8]) -> String? {
        String(validating: input, as: UTF8.self)
    }
}
