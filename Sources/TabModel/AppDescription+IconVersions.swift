/// The content version of an app's icons: what their URLs carry (`?v=`), so that a URL names one
/// picture for good and may be cached for a year. For the app's own path data it changes
/// whenever the picture may: the path data and its fill rule, the tint and the icon style. A
/// built-in icon's URL names its tint and state itself, and its version is its art's
/// (`BuiltInIcon.artVersion`), which a new TabStage may redraw.
extension AppDescription {
    /// The version of the icon the tab `tabID` draws ("" for no such tab).
    @inlinable public func iconVersion(of tabID: String) -> String { shared.fields.iconVersions[tabID] ?? "" }

    /// The version of the More item's icon (three dots, drawn in the app's tint and style).
    @inlinable public var moreIconVersion: String { shared.fields.moreIconVersion }

    /// Worked out when the app is made or changed, not when a bar is drawn.
    static func workOutIconVersions(_ fields: inout Fields) {
        let look = "|" + fields.tint.uppercased() + "|" + fields.iconStyle.rawValue
        var versions: [String: String] = [:]
        for tab in fields.tabs {
            switch tab.icon {
            case .path(let data, let fillRule): versions[tab.id] = contentVersion(data + "|" + fillRule.rawValue + look)
            case .builtIn(let icon): versions[tab.id] = icon.artVersion
            }
        }
        fields.iconVersions = versions
        fields.moreIconVersion = contentVersion("more" + look)
    }

    /// FNV-1a (32 bits) of the text's UTF-8, as 8 hexadecimal digits: not a secret, only a name
    /// that changes with its input.
    static func contentVersion(_ text: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
