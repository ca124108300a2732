import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// Logging in and out. Both move the session to a new id (`Visitors.rotate`): an id planted
/// before log-in, or held before log-out, is worthless after it.
struct AccountController: Sendable {
    let pages: PageRoutes
    let visitors: Visitors

    static let maximumNameLength = 40

    func addRoutes(to router: inout Router) {
        router.get(StageLinks.login, pages.page(.site, visiting: .init(creates: .always), loginForm))
        router.post(StageLinks.login, pages.sessionForm(logIn))
        router.post(StageLinks.logout, pages.sessionForm(logOut))
    }

    /// Where a log-in or log-out comes back to: a local path (`LocalPath`), else the start page.
    private static func next(_ value: String?) -> String { LocalPath.validated(value) ?? StageLinks.home }

    /// `GET /login?next=PATH`. The form needs a CSRF token, so showing it makes a session.
    func loginForm(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let next = Self.next(visit.page.query["next"])
        return .page(
            Page(framing: .stageFrame, returnPath: next) { LoginPage.document(next: next, problem: nil, chrome: $0) })
    }

    /// `POST /login`: any name of 1 to 40 characters without control characters.
    func logIn(_ page: PageRequest, _ form: QueryItems) throws(SessionStoreError) -> PageAnswer {
        // An outside address in `next` is dropped, never followed: no open redirect.
        let next = Self.next(form["next"])
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumNameLength).contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            let problem = UIString.loginNameProblem(maximum: Self.maximumNameLength)
            return .page(
                Page(status: .badRequest, framing: .stageFrame, returnPath: next) {
                    LoginPage.document(next: next, problem: problem, chrome: $0)
                })
        }
        let newID = try visitors.rotate(page.request) { session in
            session.visitorName = name
            Recorder.record(page, .redirect(next), since: nil, in: &session)
        }
        return .moved(newID, to: next)
    }

    /// `POST /logout`: back to the page the visitor was on, or to the tab the container moved to
    /// from there (a login-only tab is left through the container's rules).
    func logOut(_ page: PageRequest, _ form: QueryItems) throws(SessionStoreError) -> PageAnswer {
        var next = Self.next(form["next"])
        let now = page.now
        var selections: [String: String] = [:]
        // The notice shows on the page `next` names: in its app's languages too.
        let nextApp = next.split(separator: "/").first.flatMap { id in page.served.apps.first { $0.id == id } }
        let newID = try visitors.rotate(page.request) { session in
            Recorder.record(page, .redirect(next), since: nil, in: &session)
            guard session.isLoggedIn else { return }
            session.visitorName = nil
            for appID in session.containers.keys.sorted() {
                _ = session.containers[appID]?.visitorLoggedOut(at: now)
            }
            session.flash = FlashMessage(
                text: UIString.loggedOut.localizedText(alsoIn: nextApp?.languages ?? []), isError: false)
            selections = session.containers.compactMapValues(\.selectedTabID)
        }
        let segments = next.split(separator: "/").map(String.init)
        if segments.count == 3, let selected = selections[segments[0]], let layout = Layout(rawValue: segments[1]),
            segments[2] != StageLinks.moreSegment
        {
            next = StageLinks.tab(segments[0], layout, selected)
        }
        return .moved(newID, to: next)
    }
}
