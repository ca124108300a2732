import TabStageApp
import Views

/// Reads back what a page's forms carry, as a browser would submit them: the `snapshot`
/// command and the tests replay forms this way.
enum FormToken {
    /// The CSRF token written into a page's forms (`CSRFField`). Tokens are hex digits, so no
    /// unescaping.
    static func csrfToken(in page: [UInt8]) -> String? {
        let marker = Array("name=\"\(CSRFField.name)\" value=\"".utf8)
        guard page.count >= marker.count else { return nil }
        for start in 0...(page.count - marker.count) where page[start..<start + marker.count].elementsEqual(marker) {
            let valueStart = start + marker.count
            guard let end = page[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: page[valueStart..<end], as: UTF8.self)
        }
        return nil
    }
}
