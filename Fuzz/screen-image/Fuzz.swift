// libFuzzer entry for a screen page's image file, compiled into the TabModel sources by
// scripts/fuzz: any bytes, read as the file of a screen at 2x, must load or give a report
// with at least one problem (the header's sizes are the file's to choose, up to 32 bits each).

import Foundation

private let appWithOneScreen = Array(
    """
    {"id": "fuzz", "name": {"en": "Fuzz"}, "tint": "#FF9500", "tabs": [
     {"id": "home", "title": {"en": "Home"}, "icon": "home", "page": {"kind": "screen", "image": "s@2x.png",
      "alt": {"en": "A screen"}}},
     {"id": "more", "title": {"en": "More"}, "icon": "star", "page": {"kind": "text"}}]}
    """.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScreenImage(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let file = Array(UnsafeBufferPointer(start: bytes, count: count))
    switch AppDescription.load(json: appWithOneScreen, screenFile: { _ in ScreenFileInfo.of(file, fingerprint: "f") }) {
    case .success(let app):
        // A loaded screen has points to show and to place hotspots in.
        guard case .screen(let page) = app.tabs[0].page.content else { preconditionFailure("not a screen") }
        precondition(page.screen.size.width >= 1 && page.screen.size.height >= 1)
    case .failure(let report):
        precondition(!report.problems.isEmpty)
    }
    return 0
}
