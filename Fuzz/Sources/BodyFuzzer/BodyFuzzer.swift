import LifecycleCore
import LifecycleJSON
import LifecycleWire

/// libFuzzer's entry point: every input goes through the JSON parser and, as a request body, through each
/// decoder. A trap, a sanitizer report or a broken property is a crash that libFuzzer saves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let value = try? JSONParser.parse(bytes) {
        // What the writer prints, the parser reads back as the same value, and prints the same way.
        let encoded = JSONWriter.encode(value)
        guard let again = try? JSONParser.parse(encoded) else {
            fatalError("the parser refuses what the writer printed: \(String(decoding: encoded, as: UTF8.self))")
        }
        guard again == value, JSONWriter.encode(again) == encoded else {
            fatalError("a round trip changed the value: \(String(decoding: encoded, as: UTF8.self))")
        }
    }
    for kind in BodyDecoding.Kind.allCases {
        _ = BodyDecoding.problem(decoding: bytes, as: kind)
    }
    return 0
}

/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable target's entry point as `<target>_main`; it hands over to libFuzzer's driver.
@_cdecl("BodyFuzzer_main")
public func bodyFuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv) { data, count in fuzzOneInput(data, count) }
}
