import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    func pageAction(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let tabID = try parameters.require("tab")
        // The edit list's forms post where a tab's would, under the More list's segment.
        if tabID == StageLinks.moreSegment { return try customizeAction(request, located) }
        let app = located.served.apps[located.appIndex]
        let form = try checkedPost(request, app: app, badFormMessage: .unknownAction(""))
        guard app.tab(id: tabID) != nil else { return try unknownTabPage(request, tabID, app: app) }
        guard let action = PageActionForm.action(from: form) else {
            return try errorPage(
                request, .badRequest, .unknownAction(form.values(for: "action").last ?? ""), app: app)
        }
        let now = clock()
        let visit = try withVisitor(request, create: true) { session in
            let isLoggedIn = session.isLoggedIn
            let outcome = withCurrentContainer(&session, of: app, at: now) {
                $0.perform(action, onTab: tabID, isLoggedIn: isLoggedIn, at: now, in: located.layout)
            }
            // A login refusal is explained by the page the redirect leads to; say nothing twice.
            if case .refused(let refusal) = outcome, !refusal.isNeedsLogin {
                session.flash = FlashMessage(text: UIString.pageActionRefused(refusal).localizedText, isError: true)
            }
        }
        var response = StageResponses.redirect(to: StageLinks.tab(app.id, located.layout, tabID))
        attachCookie(visit.newSession, to: &response)
        return response
    }

    static let maximumNameLength = 40

    /// The form of a state-changing POST, accepted only from this site (Origin) with the
    /// session's CSRF token. A refusal throws `Answered` with its page: 403, or 400 or 413 for a
    /// form that cannot be read. Every form route reads its form through this.
    func checkedPost(_ request: Request, app: AppDescription? = nil, badFormMessage: UIString? = nil) throws
        -> QueryItems
    {
        guard isSameOrigin(request) else { throw Answered(response: try errorPage(request, .forbidden, nil, app: app)) }
        let form: QueryItems
        do {
            form = try request.form()
        } catch {
            throw Answered(response: try errorPage(request, error.status, badFormMessage, app: app))
        }
        guard try hasValidCSRFToken(request, form: form) else {
            throw Answered(response: try errorPage(request, .forbidden, nil, app: app))
        }
        return form
    }

    func loginForm(_ request: Request) throws -> Response {
        let next = LocalPath.validated(request.query["next"]) ?? StageLinks.home
        // The form needs a CSRF token, so showing it makes a session (see README, Security).
        let chrome = try withVisitor(request, create: true) { session in
            ChromeContext(
                language: language(request, &session), visitorName: session.visitorName, currentPath: next,
                csrfToken: session.csrfToken, display: display(request, &session))
        }
        var response = StageResponses.page(
            LoginPage.document(next: next, problem: nil, chrome: chrome.result), framing: .stageFrame)
        attachCookie(chrome.newSession, to: &response)
        return response
    }

    func logIn(_ request: Request) throws -> Response {
        let form = try checkedPost(request)
        // An outside address in `next` is dropped, never followed: no open redirect.
        let next = LocalPath.validated(form["next"]) ?? StageLinks.home
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumNameLength).contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            let header = try chrome(request, path: next)
            let problem = UIString.loginNameProblem(maximum: Self.maximumNameLength)
            return StageResponses.page(
                LoginPage.document(next: next, problem: problem, chrome: header.result), status: .badRequest,
                framing: .stageFrame)
        }
        // A new id at log-in: an id planted before it (fixation) is worthless after it.
        let newID = try rotateSession(request) { session in session.visitorName = name }
        var response = StageResponses.redirect(to: next)
        attachCookie(newID, to: &response)
        return response
    }

    func logOut(_ request: Request) throws -> Response {
        let form = try checkedPost(request)
        var next = LocalPath.validated(form["next"]) ?? StageLinks.home
        let now = clock()
        var selections: [String: String] = [:]
        // A new id at log-out too: whoever held the logged-in id holds nothing now.
        let newID = try rotateSession(request) { session in
            guard session.isLoggedIn else { return }
            session.visitorName = nil
            for appID in session.containers.keys.sorted() {
                // Leaves a login-only tab, through the container's rules.
                _ = session.containers[appID]?.visitorLoggedOut(at: now)
            }
            session.flash = FlashMessage(text: UIString.loggedOut.localizedText, isError: false)
            selections = session.containers.compactMapValues(\.selectedTabID)
        }
        // Back to the page the visitor was on, or to the tab the container moved to from there.
        let segments = next.split(separator: "/").map(String.init)
        if segments.count == 3, let selected = selections[segments[0]], let layout = Layout(rawValue: segments[1]),
            segments[2] != StageLinks.moreSegment
        {
            next = StageLinks.tab(segments[0], layout, selected)
        }
        var response = StageResponses.redirect(to: next)
        attachCookie(newID, to: &response)
        return response
    }
}

extension PageActionRefusal {
    var isNeedsLogin: Bool {
        if case .needsLogin = self { return true }
        return false
    }
}
