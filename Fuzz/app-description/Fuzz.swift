// libFuzzer entry for `AppDescription.load(json:)`, compiled into the TabModel sources by
// scripts/fuzz. Any bytes must load or give a report with at least one problem.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppDescription(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    switch AppDescription.load(json: Array(UnsafeBufferPointer(start: bytes, count: count))) {
    case .success(let app):
        // A loaded app must be usable: a container can select each of its tabs.
        var container = TabContainer(app: app)
        for index in app.tabs.indices {
            _ = container.select(.index(index), source: .tap, isLoggedIn: true, at: Date(timeIntervalSince1970: 0))
        }
    case .failure(let report):
        precondition(!report.problems.isEmpty)
    }
    return 0
}
