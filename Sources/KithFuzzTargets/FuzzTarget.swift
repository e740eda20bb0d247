/// One libFuzzer target: a decoder that sees bytes from outside, with the properties that must hold
/// for every input (no crash, no hang, and for an accepted input, whatever round trip the format
/// promises).
///
/// The same closure runs under libFuzzer (`scripts/fuzz.sh TARGET SECONDS`, built with
/// `-sanitize=fuzzer,address`) and in the test suite, which replays the seed corpus and every
/// input that once failed (`Fuzz/Corpus/TARGET/`, `Fuzz/Regressions/TARGET/`).
public struct FuzzTarget: Sendable {
    /// The name used on the command line and as the corpus folder (`canonical-json`, `mls-message`…).
    public let name: String
    /// What the target feeds its input to.
    public let summary: String
    /// Runs one input; a broken property stops the process (``FuzzProperty/require(_:_:)``).
    public let run: @Sendable ([UInt8]) -> Void

    /// A target named `name` running `run` on each input.
    public init(name: String, summary: String, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }
}
