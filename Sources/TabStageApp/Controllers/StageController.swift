import HTTPServer
import Sessions
import TabModel
import Views

/// The start page, and the stage: both layouts of the visitor's session side by side, with
/// the timeline.
struct StageController: Sendable {
    let pages: PageRoutes
    /// The file each app loaded with `serve --app` came from, by app id (the start page names it).
    let appFiles: [String: String]

    func addRoutes(to router: inout Router) {
        router.get(StageLinks.home, pages.page(.site, home))
        router.get("/{app}/stage", pages.page(.app, visiting: .init(creates: .always), stage))
    }

    /// `GET /`: the apps, with links into their layouts and event logs.
    func home(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let (apps, files) = (visit.page.served.apps, appFiles)
        return .page(Page { HomePage.document(apps: apps, files: files, chrome: $0) })
    }

    /// `GET /{app}/stage`. It makes the session when there is none, so that its two frames,
    /// loaded at once, share the cookie it sets instead of each making a session of its own.
    /// Its presenter panel (present, or the follow link and stop) is drawn beside the devices.
    func stage(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let (app, log) = (visit.app, session.containers[visit.app.id]?.log)
        var live = pages.liveStage(
            visit.page.appIndex ?? 0, revision: session.revision ?? 0, presentation: session.presentation,
            visit.page.served, visit.page.request)
        live.recording = RecordingStatus(session.recording)
        return .page(Page(framing: .stage) { ShowcasePage.document(app: app, log: log, live: live, chrome: $0) })
    }
}

/// The SwiftUI source of an app's tab view.
struct ExportController: Sendable {
    let pages: PageRoutes

    func addRoutes(to router: inout Router) {
        router.get("/{app}/export.swift", pages.plain(.app, swiftExport))
    }

    /// `GET /{app}/export.swift`, as plain text.
    func swiftExport(_ page: PageRequest) -> PageAnswer {
        var response = Response.text(SwiftUIExport.source(of: page.app))
        StageResponses.secure(&response)
        return .response(response)
    }
}
