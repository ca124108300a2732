// libFuzzer entry for the HTTP layer's parsers of untrusted text, compiled into the HTTPServer
// sources by scripts/fuzz: the same input is tried as a request target (path and query), as a
// urlencoded form body and as a Cookie header. Each must succeed or throw its typed error.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let text = String(decoding: input, as: UTF8.self)
    _ = try? QueryItems(parsing: Substring(text))
    _ = try? Request(method: .get, target: "/" + text)
    let headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", text)])
    if let request = try? Request(method: .post, target: "/form", headers: headers, body: input) {
        _ = try? request.form()
        _ = request.cookies
    }
    return 0
}
