import HTTPServer
import Sessions
import TabModel
import TabStageApp
import Views

/// What a request did to the prototype, from the model: the app, layout and language, the
/// visitor, the bar as one line, the page and its form's state, a notice, and the container's
/// events this request caused.
///
/// The bar is written `[Menu] (Stamps •New) [Account 🔒]`: the selected item in parentheses,
/// a count badge as its number, a text badge after `•`, and a lock on a tab that needs a
/// log-in the visitor has not given.
struct PrototypeSummary {
    let lines: [String]

    /// For a request that names no app (`/login`, `/logout`), the visitor and the events of
    /// every container it changed; nil when it names none and the visitor has no session.
    init?(
        application: StageApplication, request: Request, status: Int, before: VisitorSession?,
        after: VisitorSession?
    ) {
        let segments = request.pathSegments
        guard let appID = segments.first, let app = application.app(id: appID) else {
            guard let after else { return nil }
            var lines = ["visitor: \(after.visitorName.map { "logged in as \($0)" } ?? "logged out")"]
            for (appID, container) in after.containers.sorted(by: { $0.key < $1.key }) {
                let events = Self.events(of: container, since: before?.containers[appID])
                guard !events.isEmpty else { continue }
                lines.append("events of \(appID):")
                lines += events.map { "  \($0)" }
            }
            self.lines = lines
            return
        }
        let layout = segments.count > 1 ? Layout(rawValue: segments[1]) : nil
        let session = after ?? VisitorSession()
        let language = application.language(of: request, session: session, app: app)
        let container = session.containers[app.id] ?? TabContainer(app: app)
        var lines = ["app: \(app.id) (\(app.name.text(in: language.tag)))"]
        if let layout { lines.append("layout: \(layout.rawValue)") }
        lines.append("language: \(language.tag)")
        lines.append("visitor: \(session.visitorName.map { "logged in as \($0)" } ?? "logged out")")
        if let layout {
            lines.append(
                "bar: " + Self.bar(container, layout: layout, isLoggedIn: session.isLoggedIn, language: language))
        }
        let tabID = segments.count > 2 ? segments[2] : nil
        if let tabID, tabID == StageLinks.moreSegment, layout?.hasMoreList == true {
            lines.append("page: " + UIString.more.text(in: language))
        } else if let tabID, let tab = app.tab(id: tabID) {
            if segments.count == 3, request.method == .get {
                let title = StageContext.pageTitle(ofTab: tab, language: language)
                lines.append(
                    "page: " + (status == 403 ? "\(UIString.loginRequired.text(in: language)) (\(title))" : title))
            }
            // A refused tab shows the log-in form, not its page.
            if status != 403, let state = container.pageState(ofTab: tabID), let form = Self.form(state) {
                lines.append("form: " + form)
            }
            if status == 200, request.method == .get, case .screen(let page) = tab.page.content {
                let detail = segments.count == 4 ? page.details.first { $0.id == segments[3] } : nil
                if segments.count == 3 || detail != nil {
                    let count: Int? =
                        if page.counter != nil, case .screen(let value)? = container.pageState(ofTab: tabID) {
                            value
                        } else { nil }
                    lines += Self.screen(detail?.screen ?? page.screen, count: count, language: language)
                }
            }
        }
        if let shown = before?.flash, after?.flash == nil {
            lines.append("notice shown: " + shown.text.text(in: language.tag))
        } else if let set = after?.flash, before?.flash != set {
            lines.append("notice for the next page: " + set.text.text(in: language.tag))
        }
        let events = Self.events(of: container, since: before?.containers[app.id])
        lines.append(events.isEmpty ? "events: none" : "events:")
        lines += events.map { "  \($0)" }
        self.lines = lines
    }

    /// A screen's count (when its page has one), its images (file, size, scale, what they are for,
    /// and the fingerprint of their bytes, so that a changed picture is a changed snapshot) and
    /// its hotspots in reading order.
    static func screen(_ screen: ScreenView, count: Int?, language: PageLanguage) -> [String] {
        var lines = ["screen:"]
        if let count { lines.append("  count \(count)") }
        for image in screen.images {
            let variant = [image.device?.rawValue, image.appearance?.rawValue].compactMap { $0 }
            lines.append(
                "  image \(image.file) (\(image.pointWidth)×\(image.pointHeight) points at \(image.scale)x"
                    + (variant.isEmpty ? "" : ", " + variant.joined(separator: " ")) + "), \(image.fingerprint)")
        }
        for hotspot in screen.hotspots.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            lines.append(
                "  hotspot \(quoted(hotspot.label.text(in: language.tag))) at (\(hotspot.x), \(hotspot.y)) "
                    + "\(hotspot.width)×\(hotspot.height): \(hotspot.action)")
        }
        return lines
    }

    /// The events `container` logged after `earlier`, its state before the request.
    static func events(of container: TabContainer, since earlier: TabContainer?) -> [ContainerEvent] {
        let firstNew = earlier?.log.nextSequence ?? 1
        return container.log.events.filter { $0.sequence >= firstNew }
    }

    static func bar(_ container: TabContainer, layout: Layout, isLoggedIn: Bool, language: PageLanguage) -> String {
        let tabs = container.app.tabs
        func item(_ index: Int, isSelected: Bool) -> String {
            let tab = tabs[index]
            var text = tab.title.text(in: language.tag)
            switch container.badge(at: index) {
            case .count(let count)?: text += " " + (Badge.count(count).label ?? "")
            case .text(let label)?: text += " •" + label.text(in: language.tag)
            case nil: break
            }
            if tab.requiresLogin && !isLoggedIn { text += " 🔒" }
            return isSelected ? "(\(text))" : "[\(text)]"
        }
        guard layout.hasMoreList else {
            return container.shownPositions.map { item($0, isSelected: $0 == container.selectedIndex) }.joined(
                separator: " ")
        }
        return container.bottomBarItems().map { barItem in
            switch barItem {
            case .tab(let index, _, let isSelected): item(index, isSelected: isSelected)
            case .more(_, let isSelected):
                isSelected ? "(\(UIString.more.text(in: language)))" : "[\(UIString.more.text(in: language))]"
            }
        }
        .joined(separator: " ")
    }

    /// The state a page's form shows, in a few words; nil for a page without one.
    static func form(_ state: PageState) -> String? {
        func list(_ ids: [String]) -> String { ids.isEmpty ? "none" : ids.joined(separator: ", ") }
        switch state {
        case .text: return nil
        case .counter(let count): return "count \(count)"
        case .search(let query): return "query \(quoted(query))"
        case .wallet(let balance, let lastTopUp):
            return "balance \(balance)" + (lastTopUp.map { ", last top-up \($0)" } ?? "")
        case .news(let read): return "read \(list(read))"
        case .profile(let nickname): return "nickname " + (nickname.map(quoted) ?? "none")
        case .checklist(let checked): return "checked \(list(checked))"
        case .settings(let enabled): return "on \(list(enabled))"
        case .screen: return nil  // said with the screen (`screen(_:count:language:)`)
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
