import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    /// `/{app}/stage`: both layouts of the visitor's session side by side, and the timeline.
    ///
    /// It makes the session when there is none, so that its two frames, loaded at once, share
    /// the cookie it sets instead of each making a session of its own.
    func showcase(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        let visit = try withVisitor(request, create: true) { session in
            EventLogVisit(
                chrome: ChromeContext(
                    language: language(request, &session), app: app, visitorName: session.visitorName,
                    currentPath: StageLinks.stage(app.id), csrfToken: session.csrfToken,
                    display: display(request, &session)),
                log: session.containers[app.id]?.log)
        }
        var response = StageResponses.page(
            ShowcasePage.document(app: app, log: visit.result.log, chrome: visit.result.chrome), framing: .stage)
        attachCookie(visit.newSession, to: &response)
        return response
    }
}
