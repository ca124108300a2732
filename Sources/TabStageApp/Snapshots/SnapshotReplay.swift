import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// Sends a request list's requests, in order, to one deterministic application in process, as
/// one browser would: carrying its session cookie, and adding the CSRF token of the last page
/// to every form it posts (unless the list gives one).
///
/// Beside each response it reads what the prototype did from the session store itself (the
/// container's bar, the page's state, the events this request caused), so a snapshot says it in
/// the model's words before the markup.
struct SnapshotReplay {
    let application: StageApplication
    private let router: Router
    private var cookie: String?
    private var csrfToken: String?

    init(apps: [AppDescription]) {
        application = StageApplication.deterministic(apps: apps)
        var router = Router()
        application.addRoutes(to: &router)
        self.router = router
    }

    /// A response as received, and the prototype's state after it.
    struct Replayed {
        var status: Int
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// The `== prototype` section's lines; empty when the request was about no app.
        var prototype: [String]

        var isPNG: Bool {
            headers.contains { $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("image/png") }
        }
    }

    mutating func send(_ replayed: ReplayRequest) -> Replayed {
        var headers = HTTPHeaders()
        headers["Host"] = "localhost"
        if let cookie { headers["Cookie"] = cookie }
        for header in replayed.headers { headers[header.name] = header.value }
        var body: [UInt8] = []
        if var form = replayed.form {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            // A browser submits the token of the page its form came from.
            if let csrfToken, !form.contains(where: { $0.name == CSRFField.name }) {
                form.append(ReplayRequest.FormField(name: CSRFField.name, encodedValue: csrfToken))
            }
            body = Array(form.map { $0.name + "=" + $0.encodedValue }.joined(separator: "&").utf8)
        }
        let request: Request
        do {
            request = try Request(method: replayed.kind.method, target: replayed.target, headers: headers, body: body)
        } catch {
            // The list's parser has checked every target already.
            let response = Response.statusPage(.badRequest, message: error.description)
            return Replayed(response, prototype: [])
        }
        let before = session(of: request)
        let response = router.respond(to: request)
        if let setCookie = response.headers["Set-Cookie"], let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        if let token = FormToken.csrfToken(in: response.body) { csrfToken = token }
        let after = cookie.flatMap { pair in
            pair.split(separator: "=", maxSplits: 1).last.flatMap { SessionID(cookieValue: String($0)) }
        }
        .flatMap { try? application.store.state(of: $0, now: application.clock().timeIntervalSince1970) }
        let summary = PrototypeSummary(
            application: application, request: request, status: response.status.rawValue, before: before,
            after: after)
        return Replayed(response, prototype: summary?.lines ?? [])
    }

    private func session(of request: Request) -> VisitorSession? {
        guard let id = application.sessionID(of: request) else { return nil }
        return try? application.store.state(of: id, now: application.clock().timeIntervalSince1970)
    }
}

extension SnapshotReplay.Replayed {
    init(_ response: Response, prototype: [String]) {
        self.init(
            status: response.status.rawValue,
            statusLine: "HTTP/1.1 \(response.status.rawValue) \(response.status.reasonPhrase)",
            headers: response.headers.fields.map { (name: $0.name, value: $0.value) }, body: response.body,
            prototype: prototype)
    }
}

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
        let language = application.keptLanguage(request, session)
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
        if let tabID, tabID == StageLinks.moreSegment, layout == .bottom {
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

    /// The events `container` logged after `earlier`, its state before the request.
    static func events(of container: TabContainer, since earlier: TabContainer?) -> [ContainerEvent] {
        let firstNew = earlier?.log.nextSequence ?? 1
        return container.log.events.filter { $0.sequence >= firstNew }
    }

    static func bar(_ container: TabContainer, layout: Layout, isLoggedIn: Bool, language: UILanguage) -> String {
        let tabs = container.app.tabs
        func item(_ index: Int, isSelected: Bool) -> String {
            let tab = tabs[index]
            var text = tab.title.text(in: language.tag)
            switch container.badge(at: index) {
            case .count(let count)?: text += " " + (Badge.count(count).label ?? "")
            case .text(let label)?: text += " •" + label
            case nil: break
            }
            if tab.requiresLogin && !isLoggedIn { text += " 🔒" }
            return isSelected ? "(\(text))" : "[\(text)]"
        }
        guard layout == .bottom else {
            return tabs.indices.map { item($0, isSelected: $0 == container.selectedIndex) }.joined(separator: " ")
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
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
