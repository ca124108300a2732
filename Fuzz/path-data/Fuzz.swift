// libFuzzer entry for `PathData(parsing:)`, compiled into the PathGeometry sources by scripts/fuzz.
// Any input must parse or fail with a PathSyntaxError; a trap or a sanitizer report is a bug.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    if let path = try? PathData(parsing: text) {
        // Every accepted path must stay within the documented bounds.
        precondition(path.elements.count <= PathData.maximumElements)
    }
    return 0
}
