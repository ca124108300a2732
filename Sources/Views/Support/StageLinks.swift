import TabModel

/// Every URL the pages link to, in one place so routes and views agree.
///
/// App and tab ids are checked by the loader (`a-z`, `0-9`, `-`), so they go into paths as is.
public enum StageLinks {
    public static let home = "/"
    public static let stylesheet = "/static/css/tabstage.css"
    public static let script = "/static/js/tabstage.js"
    public static let login = "/login"
    public static let logout = "/logout"
    /// The More list of the bottom bar; tab ids never hold `_`, so it never hides a tab.
    public static let moreSegment = "_more"

    public static func layout(_ appID: String, _ layout: Layout) -> String { "/\(appID)/\(layout.rawValue)" }

    /// `/app/layout/tab`, built in one allocation: it is every tab page's current path, and the
    /// interpolation appended its five pieces one by one (1,770 instructions per tab page, this 610).
    public static func tab(_ appID: String, _ layout: Layout, _ tabID: String) -> String {
        let layoutName = layout.rawValue
        let count = 3 + appID.utf8.count + layoutName.utf8.count + tabID.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            // `put` returns where it stopped: a captured `var` would be checked for exclusive
            // access on every write.
            func put(_ text: String, at start: Int) -> Int {
                buffer[start] = UInt8(ascii: "/")
                var end = start + 1
                // Native strings lend their bytes for one copy; any other goes byte by byte.
                if let copied = text.utf8.withContiguousStorageIfAvailable({ bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: bytes)
                }) {
                    return end + copied
                }
                for byte in text.utf8 {
                    buffer[end] = byte
                    end += 1
                }
                return end
            }
            return put(tabID, at: put(layoutName, at: put(appID, at: 0)))
        }
    }

    public static func more(_ appID: String) -> String { "/\(appID)/\(Layout.bottom.rawValue)/\(moreSegment)" }

    /// Where a tab's page forms post.
    public static func action(_ appID: String, _ layout: Layout, _ tabID: String) -> String {
        tab(appID, layout, tabID) + "/action"
    }

    public static func events(_ appID: String) -> String { "/\(appID)/events" }
    public static func eventsJSON(_ appID: String) -> String { "/\(appID)/events.json" }
    public static func theme(_ appID: String) -> String { "/theme/\(appID).css" }

    public static func login(next: String) -> String {
        login + "?next=" + URLComponentEncoding.encodedString(next)
    }

    /// The 80 × 80 pt glow cell of a tab's icon at a scale (1, 2 or 3).
    public static func icon(app: AppDescription, tab: TabDescription, selected: Bool, scale: Int) -> String {
        var html = HTMLWriter(capacity: 64)
        writeIcon(app: app, tab: tab, selected: selected, scale: scale, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    /// The icon gallery, and one built-in icon's cell there (`tint` is `RRGGBB`, for selected).
    public static let iconGallery = "/icons"

    public static func builtInIcon(_ name: String, selected: Bool, scale: Int, tint: String) -> String {
        let base = "/icons/\(name)/\(selected ? "selected" : "unselected")@\(scale)x.png"
        return selected ? base + "?tint=" + tint : base
    }

    /// The More item's icon (three dots, drawn from inline path data by the icon routes).
    public static func moreIcon(app: AppDescription, selected: Bool, scale: Int) -> String {
        var html = HTMLWriter(capacity: 64)
        writeMoreIcon(app: app, selected: selected, scale: scale, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    // The writers below put the same URLs straight into a page, in an attribute value: every
    // piece goes through `text`, so the bytes are those of `attribute(name, url)`.

    /// `tab(appID, layout, tabID)`, written into `html`.
    static func writeTab(_ appID: String, _ layout: Layout, _ tabID: String, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/")
        html.text(layout.rawValue)
        html.raw("/")
        html.text(tabID)
    }

    /// The two halves of an icon URL around its scale: the bar writes each half once per tab
    /// and repeats its bytes for the other scales.
    enum IconURLHalf {
        case beforeScale
        case afterScale
    }

    /// `icon(app:tab:selected:scale:)`, written into `html`.
    static func writeIcon(
        app: AppDescription, tab: TabDescription, selected: Bool, scale: Int, into html: inout HTMLWriter
    ) {
        writeIcon(.beforeScale, app: app, icon: tab.icon, tabID: tab.id, selected: selected, into: &html)
        html.number(scale)
        writeIcon(.afterScale, app: app, icon: tab.icon, tabID: tab.id, selected: selected, into: &html)
    }

    /// The fill of unselected icons on a dark bar (`?color=`): light, as iOS draws them there.
    public static let unselectedOnDarkColor = "C7C7CC"

    /// One half of `writeIcon(app:tab:selected:scale:into:)`, from the two fields of the tab it
    /// reads (the bar reads them in place, without copying the whole tab description). `onDark`
    /// asks for an unselected icon's light fill; a selected icon keeps the app's tint.
    static func writeIcon(
        _ half: IconURLHalf, app: AppDescription, icon: TabIcon, tabID: String, selected: Bool,
        onDark: Bool = false, into html: inout HTMLWriter
    ) {
        switch (icon, half) {
        case (.builtIn(let icon), .beforeScale):
            html.raw("/icons/")
            html.text(icon.rawValue)
            html.raw(selected ? "/selected@" : "/unselected@")
        case (.builtIn, .afterScale):
            html.raw("x.png")
            if selected {
                html.raw("?tint=")
                writeTintQuery(app, into: &html)
            } else if onDark {
                writeOnDarkQuery(into: &html)
            }
        case (.path, .beforeScale):
            html.raw("/icons/apps/")
            html.text(app.id)
            html.raw("/")
            html.text(tabID)
            html.raw(selected ? "/selected@" : "/unselected@")
        case (.path, .afterScale):
            html.raw("x.png")
            if !selected && onDark { writeOnDarkQuery(into: &html) }
        }
    }

    /// `moreIcon(app:selected:scale:)`, written into `html`.
    static func writeMoreIcon(app: AppDescription, selected: Bool, scale: Int, into html: inout HTMLWriter) {
        writeMoreIcon(.beforeScale, app: app, selected: selected, into: &html)
        html.number(scale)
        writeMoreIcon(.afterScale, app: app, selected: selected, into: &html)
    }

    /// One half of `writeMoreIcon(app:selected:scale:into:)`.
    static func writeMoreIcon(
        _ half: IconURLHalf, app: AppDescription, selected: Bool, onDark: Bool = false, into html: inout HTMLWriter
    ) {
        switch half {
        case .beforeScale:
            html.raw("/icons/apps/")
            html.text(app.id)
            html.raw("/")
            html.text(moreSegment)
            html.raw(selected ? "/selected@" : "/unselected@")
        case .afterScale:
            html.raw("x.png")
            if !selected && onDark { writeOnDarkQuery(into: &html) }
        }
    }

    private static func writeOnDarkQuery(into html: inout HTMLWriter) {
        html.raw("?color=")
        html.text(unselectedOnDarkColor)
    }

    /// The stage of an app: both layouts side by side, in device frames, with the timeline.
    public static func stage(_ appID: String) -> String { "/\(appID)/stage" }

    /// `RRGGBB` in capitals: one spelling per colour, so one cache entry per colour.
    static func tintQuery(_ app: AppDescription) -> String {
        var html = HTMLWriter(capacity: 8)
        writeTintQuery(app, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    static func writeTintQuery(_ app: AppDescription, into html: inout HTMLWriter) {
        guard let (red, green, blue) = app.tintComponents else {
            html.raw("007AFF")
            return
        }
        html.hexByte(red)
        html.hexByte(green)
        html.hexByte(blue)
    }
}
