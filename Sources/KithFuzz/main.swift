// `kith-fuzz`: the fuzz targets of `KithFuzzTargets` as one program.
//
// Built normally, it lists the targets and replays inputs (`kith-fuzz replay TARGET FILE…`).
// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address -DKITH_LIBFUZZER`, `kith-fuzz TARGET
// [libFuzzer options] [CORPUS…]` runs libFuzzer on that target.
import Foundation
import KithFuzzTargets

#if KITH_LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// libFuzzer's archive brings its own `main`, which needs this symbol to link; the driver above is what runs.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?.run(input)
    return 0
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTargets.named(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: kith-fuzz TARGET [libFuzzer options] [CORPUS…]; targets: \(FuzzTargets.all.map(\.name).joined(separator: " "))\n".utf8))
    exit(2)
}
selectedTarget = target
// libFuzzer sees the program name followed by the arguments after the target's name.
var driverArguments: [UnsafeMutablePointer<CChar>?] = [strdup(arguments[0])] + arguments.dropFirst(2).map { strdup($0) } + [nil]
var driverCount = CInt(driverArguments.count - 1)
let status = driverArguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return runFuzzerDriver(&driverCount, &pointer, fuzzOneInput)
}
exit(status)
#else
exit(FuzzCommandLine.run(CommandLine.arguments))
#endif
