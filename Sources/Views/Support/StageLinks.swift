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

    public static func tab(_ appID: String, _ layout: Layout, _ tabID: String) -> String {
        "/\(appID)/\(layout.rawValue)/\(tabID)"
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
        let state = selected ? "selected" : "unselected"
        switch tab.icon {
        case .builtIn(let icon):
            let base = "/icons/\(icon.rawValue)/\(state)@\(scale)x.png"
            return selected ? base + "?tint=" + tintQuery(app) : base
        case .path:
            return "/icons/apps/\(app.id)/\(tab.id)/\(state)@\(scale)x.png"
        }
    }

    /// The icon gallery, and one built-in icon's cell there (`tint` is `RRGGBB`, for selected).
    public static let iconGallery = "/icons"

    public static func builtInIcon(_ name: String, selected: Bool, scale: Int, tint: String) -> String {
        let base = "/icons/\(name)/\(selected ? "selected" : "unselected")@\(scale)x.png"
        return selected ? base + "?tint=" + tint : base
    }

    /// The More item's icon (three dots, drawn from inline path data by the icon routes).
    public static func moreIcon(app: AppDescription, selected: Bool, scale: Int) -> String {
        let state = selected ? "selected" : "unselected"
        return "/icons/apps/\(app.id)/\(moreSegment)/\(state)@\(scale)x.png"
    }

    /// `RRGGBB` in capitals: one spelling per colour, so one cache entry per colour.
    static func tintQuery(_ app: AppDescription) -> String {
        guard let (red, green, blue) = app.tintComponents else { return "007AFF" }
        return [red, green, blue].map(hexByte).joined()
    }

    static func hexByte(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }
}
