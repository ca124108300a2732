import Colour
import TabModel

/// Every URL the pages link to, in one place so routes and views agree.
///
/// App and tab ids are checked by the loader (`a-z`, `0-9`, `-`), so they go into paths as is.
public enum StageLinks {
    public static let home = "/"
    public static let stylesheet = "/static/css/tabstage.css"
    public static let script = "/static/js/tabstage.js"
    /// Live pages' script (their event stream and re-reads), and the stage's.
    public static let liveScript = "/static/js/live.js"
    public static let stageScript = "/static/js/stage.js"
    /// The tool's own icon, a phone screen over a tab bar (Public/images/favicon.svg).
    public static let favicon = "/static/images/favicon.svg"
    public static let login = "/login"
    public static let logout = "/logout"
    /// The More list of the bottom bar; tab ids never hold `_`, so it never hides a tab.
    public static let moreSegment = "_more"

    /// The icon gallery (`?tint=RRGGBB` colours its selected cells).
    public static let iconGallery = "/icons"

    // Each URL below has one writer, which puts it into a page (in an attribute value: every
    // piece from outside goes through `text` or `urlComponent`); its String form is the same
    // bytes (app and tab ids are `a-z`, `0-9` and `-`, which escaping leaves alone).

    /// A URL a writer below writes, as a String.
    static func url(_ write: (inout HTMLWriter) -> Void) -> String {
        var html = HTMLWriter(capacity: 64)
        write(&html)
        return String(decoding: html.finish(), as: UTF8.self)
    }

    /// `/app/layout`: the layout's entry, which goes on to its selected tab.
    public static func layout(_ appID: String, _ layout: Layout) -> String {
        url { writeLayout(appID, layout, into: &$0) }
    }

    static func writeLayout(_ appID: String, _ layout: Layout, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/")
        html.text(layout.rawValue)
    }

    /// `/app/layout/tab`: a tab's page.
    public static func tab(_ appID: String, _ layout: Layout, _ tabID: String) -> String {
        // Every tab page's current path: the String is sized once, then filled.
        var path = ""
        path.reserveCapacity(3 + appID.utf8.count + layout.rawValue.utf8.count + tabID.utf8.count)
        path += "/"
        path += appID
        path += "/"
        path += layout.rawValue
        path += "/"
        path += tabID
        return path
    }

    static func writeTab(_ appID: String, _ layout: Layout, _ tabID: String, into html: inout HTMLWriter) {
        writeLayout(appID, layout, into: &html)
        html.raw("/")
        html.text(tabID)
    }

    /// The last segment of a tab's form endpoint, `/{app}/{layout}/{tab}/action`.
    public static let actionSegment = "action"

    /// `/{app}/{layout}/{tab}/{item}`: the detail screen of a list page's item.
    public static func detail(_ appID: String, _ layout: Layout, _ tabID: String, _ itemID: String) -> String {
        tab(appID, layout, tabID) + "/" + itemID
    }

    /// The bottom bar's More list: the tab path of `moreSegment` (the bottom layout's, or the adaptive one's).
    public static func more(_ appID: String, _ layout: Layout = .bottom) -> String { tab(appID, layout, moreSegment) }

    /// The last segment of the edit list under the More list, `/{app}/{layout}/_more/edit`.
    public static let editSegment = "edit"

    /// The edit list: UIKit's More → Edit, and the sidebar's Edit.
    public static func editTabs(_ appID: String, _ layout: Layout) -> String {
        more(appID, layout) + "/" + editSegment
    }

    /// Where a tab's page forms post.
    static func writeAction(_ appID: String, _ layout: Layout, _ tabID: String, into html: inout HTMLWriter) {
        writeTab(appID, layout, tabID, into: &html)
        html.raw("/action")
    }

    /// The app's event log page.
    public static func events(_ appID: String) -> String { url { writeEvents(appID, into: &$0) } }
    /// The event log showing one kind of event (`?kind=`); nil: every event.
    public static func events(_ appID: String, category: EventCategory?) -> String {
        url { html in
            writeEvents(appID, into: &html)
            if let category {
                html.raw("?kind=")
                html.text(category.rawValue)
            }
        }
    }
    /// `/{app}/reset`: GET asks to confirm, POST resets the visitor's container of the app.
    public static func resetDemo(_ appID: String) -> String { "/\(appID)/reset" }
    /// Where a visitor starts presenting an app (see docs/live.md), and stops.
    static func writePresent(_ appID: String, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/present")
    }

    static func writeStopPresenting(_ appID: String, into html: inout HTMLWriter) {
        writePresent(appID, into: &html)
        html.raw("/stop")
    }

    /// A presentation's follow page, for the code a presenter hands out.
    public static func follow(_ appID: String, _ code: String) -> String { url { writeFollow(appID, code, into: &$0) } }

    static func writeFollow(_ appID: String, _ code: String, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/follow/")
        html.text(code)
    }

    /// Where a follower leaves, with a copy of what the presenter shows.
    public static func leave(_ appID: String, _ code: String) -> String {
        url {
            writeFollow(appID, code, into: &$0)
            $0.raw("/leave")
        }
    }

    static func writeEvents(_ appID: String, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/events")
    }

    /// The app's event log as JSON.
    public static func eventsJSON(_ appID: String) -> String {
        url { html in
            writeEvents(appID, into: &html)
            html.raw(".json")
        }
    }

    /// A search tab with its query: `/{app}/{layout}/{tab}?q=…`.
    public static func search(_ appID: String, _ layout: Layout, _ tabID: String, query: String) -> String {
        url { html in
            writeTab(appID, layout, tabID, into: &html)
            html.raw("?q=")
            html.urlComponent(query)
        }
    }

    /// The app's stylesheet, which sets its tint: `/theme/APP.css?tint=RRGGBB`, so that a new
    /// tint is a new URL, which a live page swaps in.
    static func writeTheme(_ app: AppDescription, into html: inout HTMLWriter) {
        html.raw("/theme/")
        html.text(app.id)
        html.raw(".css?tint=")
        writeTintQuery(app, into: &html)
    }

    /// The log-in form, coming back to `next` (percent-encoded, so safe in an attribute as is).
    static func writeLogin(next: String, into html: inout HTMLWriter) {
        html.raw("/login?next=")
        html.urlComponent(next)
    }

    /// This page in another language: a relative `?lang=` link.
    static func writeLanguage(_ tag: String, into html: inout HTMLWriter) {
        html.raw("?lang=")
        html.urlComponent(tag)
    }

    /// One built-in icon's cell in the gallery (`tint` is `RRGGBB`, for the tinted states), with
    /// the version of its art (`?v=`).
    public static func builtInIcon(_ name: String, state: IconPicture, scale: Int, tint: String) -> String {
        url { html in
            html.raw("/icons/")
            html.text(name)
            html.raw(state.segment)
            html.number(scale)
            html.raw("x.png")
            if state != .unselected {
                html.raw("?tint=")
                html.text(tint)
                html.raw("&v=")
            } else {
                html.raw("?v=")
            }
            html.text(BuiltInIcon(rawValue: name)?.artVersion ?? "")
        }
    }

    /// `/STATE@`: a selected icon in the app's `iconStyle`, or the unselected one.
    private static func writeStateSegment(_ app: AppDescription, selected: Bool, into html: inout HTMLWriter) {
        let state: IconPicture = selected ? .selected(app.iconStyle) : .unselected
        html.raw(state.segment)
    }

    /// The pictures an icon URL names (the icon routes' `STATE` segment).
    public enum IconPicture: Equatable, Sendable {
        case unselected
        case selected(IconStyle)

        /// The state's segment with its slashes: `/unselected@`, `/selected@` (the glow) or `/tinted@`.
        var segment: StaticString {
            switch self {
            case .unselected: "/unselected@"
            case .selected(.glow): "/selected@"
            case .selected(.tinted): "/tinted@"
            }
        }
    }

    /// The two halves of an icon URL around its scale: the bar writes each half once per tab
    /// and repeats its bytes for the other scales.
    enum IconURLHalf {
        case beforeScale
        case afterScale
    }

    /// A tab's icon URL at one scale (the More list's rows), written into `html`.
    static func writeIcon(
        app: AppDescription, tab: TabDescription, selected: Bool, scale: Int, into html: inout HTMLWriter
    ) {
        writeIcon(.beforeScale, app: app, icon: tab.icon, tabID: tab.id, selected: selected, into: &html)
        html.number(scale)
        writeIcon(.afterScale, app: app, icon: tab.icon, tabID: tab.id, selected: selected, into: &html)
    }

    /// The fill of unselected icons on a dark bar (`?color=`): light, as iOS draws them there.
    public static let unselectedOnDarkColor = "C7C7CC"

    /// One half of a tab's icon URL, `/icons/NAME/STATE@Sx.png?tint=RRGGBB&v=VERSION` for a built-in
    /// icon (`?v=VERSION` alone when unselected) or `/icons/apps/APP/TAB/STATE@Sx.png?v=VERSION` for
    /// the app's own path data (`AppDescription.iconVersion(of:)`), from the two fields of
    /// the tab it reads (the bar reads them in place, without copying the whole tab description). `onDark` asks for an
    /// unselected icon's light fill (`?color=`); a selected icon keeps the app's tint.
    static func writeIcon(
        _ half: IconURLHalf, app: AppDescription, icon: TabIcon, tabID: String, selected: Bool,
        onDark: Bool = false, into html: inout HTMLWriter
    ) {
        switch (icon, half) {
        case (.builtIn(let icon), .beforeScale):
            html.raw("/icons/")
            html.text(icon.rawValue)
            writeStateSegment(app, selected: selected, into: &html)
        case (.builtIn, .afterScale):
            html.raw("x.png")
            if selected {
                html.raw("?tint=")
                writeTintQuery(app, into: &html)
                html.raw("&v=")
            } else {
                html.raw("?v=")
            }
            html.text(app.iconVersion(of: tabID))
            if !selected && onDark { writeOnDarkQuery(then: true, into: &html) }
        case (.path, .beforeScale):
            html.raw("/icons/apps/")
            html.text(app.id)
            html.raw("/")
            html.text(tabID)
            writeStateSegment(app, selected: selected, into: &html)
        case (.path, .afterScale):
            html.raw("x.png?v=")
            html.text(app.iconVersion(of: tabID))
            if !selected && onDark { writeOnDarkQuery(then: true, into: &html) }
        }
    }

    /// One half of the More item's icon URL (three dots, drawn from inline path data by the
    /// icon routes): `/icons/apps/APP/_more/STATE@Sx.png?v=VERSION`.
    static func writeMoreIcon(
        _ half: IconURLHalf, app: AppDescription, selected: Bool, onDark: Bool = false,
        into html: inout HTMLWriter
    ) {
        switch half {
        case .beforeScale:
            html.raw("/icons/apps/")
            html.text(app.id)
            html.raw("/")
            html.text(moreSegment)
            writeStateSegment(app, selected: selected, into: &html)
        case .afterScale:
            html.raw("x.png?v=")
            html.text(app.moreIconVersion)
            if !selected && onDark { writeOnDarkQuery(then: true, into: &html) }
        }
    }

    /// `?color=` (`&color=` after another query item).
    private static func writeOnDarkQuery(then: Bool = false, into html: inout HTMLWriter) {
        html.raw(then ? "&color=" : "?color=")
        html.text(unselectedOnDarkColor)
    }

    /// The stage of an app: both layouts side by side, in device frames, with the timeline.
    public static func stage(_ appID: String) -> String { url { writeStage(appID, into: &$0) } }

    static func writeStage(_ appID: String, into html: inout HTMLWriter) {
        html.raw("/")
        html.text(appID)
        html.raw("/stage")
    }

    /// `RRGGBB` in capitals: one spelling per colour, so one cache entry per colour.
    static func tintQuery(_ app: AppDescription) -> String {
        var html = HTMLWriter(capacity: 8)
        writeTintQuery(app, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    static func writeTintQuery(_ app: AppDescription, into html: inout HTMLWriter) {
        guard let tint = app.tintColor else {
            html.raw("007AFF")
            return
        }
        html.hexByte(tint.red)
        html.hexByte(tint.green)
        html.hexByte(tint.blue)
    }
}
