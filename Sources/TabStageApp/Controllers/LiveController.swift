import Foundation
import HTTPServer
import Sessions
import Synchronization
import TabModel
import Views

/// Live pages, presenting and following (docs/live.md). A live page holds an event stream
/// that says when what it shows moved on; the page then reads its state again itself.
struct LiveController: Sendable {
    let pages: PageRoutes
    let visitors: Visitors
    let liveStreams: LiveStreams
    let shelf: AppShelf

    /// How long a browser waits before reconnecting a dropped stream.
    static let reconnectMilliseconds = 1000

    /// Fixed segments after `{app}`: before the app's screens.
    func addRoutes(to router: inout Router) {
        router.get("/{app}/live", pages.plain(.app, liveStream))
        router.post("/{app}/present", pages.form(.app, isRecorded: false, present))
        router.post("/{app}/present/stop", pages.form(.app, isRecorded: false, stopPresenting))
        router.get(
            "/{app}/follow/{code}", pages.page(.app, visiting: .init(creates: .always), find: presenter, followPage))
        router.get("/{app}/follow/{code}/live", pages.plain(.app, followStream))
        router.post(
            "/{app}/follow/{code}/leave",
            pages.page(.app, visiting: .init(creates: .never, takesToken: true), find: presenter, leave))
    }

    // MARK: Streams

    /// `GET /{app}/live`: the stream of the visitor's own pages of an app. It says `change`
    /// whenever the session or the app moved past what the page shows (the page then reads the
    /// state again), `problems` with the app file's problems (empty when there are none),
    /// `followers` with a presenter's audience, and a heartbeat comment when idle.
    func liveStream(_ page: PageRequest) throws(SessionStoreError) -> PageAnswer {
        let appID = page.app.id
        let id = visitors.sessionID(of: page.request)
        let now = page.now.timeIntervalSince1970
        var revision: UInt64 = 0
        var presentation: Presentation?
        if let id {
            try visitors.store.read(id, now: now) { session in
                revision = session.revision ?? 0
                presentation = session.presentation
            }
        }
        // The code is set again where it lapsed: a store that keeps aliases in its process
        // (SQLite) restarted, or no one used the code for the idle timeout.
        if let id, let presentation, try visitors.store.session(forAlias: presentation.code, now: now) != id {
            try visitors.store.setAlias(presentation.code, to: id, now: now)
        }
        let sessionTopic = id.map(LiveTopic.session)
        var topics = [LiveTopic.app(appID)]
        if let sessionTopic { topics.append(sessionTopic) }
        if let presentation, presentation.appID == appID { topics.append(LiveTopic.audience(presentation.code)) }
        let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat)
        let shelf = self.shelf
        let shown = LiveVersionSeen(revision: revision, generation: page.served.generation(ofApp: appID))
        stream.write(ServerSentEvent.retry(milliseconds: Self.reconnectMilliseconds))
        stream.write(Self.problemsEvent(appID, shelf.current))
        if let presentation, presentation.appID == appID {
            let count = liveStreams.count(on: LiveTopic.follower(presentation.code))
            stream.write(ServerSentEvent(name: "followers", data: "\(count)").bytes)
        }
        Self.greet(stream, shown: shown, request: page.request)
        liveStreams.open(
            LivePage(stream: stream, topics: topics) { notice, stream, delivery in
                if notice.topic == LiveTopic.app(appID) {
                    delivery.send(Self.problemsEvent(appID, shelf.current), to: stream)
                    guard let text = shown.update(generation: notice.version) else { return true }
                    return delivery.send(ServerSentEvent(name: "change", id: text, data: ""), to: stream)
                }
                guard notice.topic == sessionTopic else {
                    return delivery.send(ServerSentEvent(name: "followers", data: "\(notice.version)"), to: stream)
                }
                return Self.sessionChanged(notice, shown: shown, stream: stream, delivery: delivery)
            })
        return .response(.stream(stream, headers: ServerSentEvent.streamHeaders))
    }

    /// `GET /{app}/follow/{code}/live`: a follower's stream, on the presenter's session. It
    /// says `ended` when the presenter stopped (or their session is gone).
    func followStream(_ page: PageRequest) throws(SessionStoreError) -> PageAnswer {
        let appID = page.app.id
        let code = page.parameter("code")
        guard let found = try presented(page) else { return .refusal(.notFound(.presentationEnded)) }
        let shown = LiveVersionSeen(
            revision: found.session.revision ?? 0, generation: page.served.generation(ofApp: appID))
        let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat)
        stream.write(ServerSentEvent.retry(milliseconds: Self.reconnectMilliseconds))
        Self.greet(stream, shown: shown, request: page.request)
        let sessionTopic = LiveTopic.session(found.id)
        let topics = [LiveTopic.app(appID), sessionTopic, LiveTopic.follower(code), LiveTopic.presentation(code)]
        // Notices may come from another instance: the page is told what they mean, and reads
        // the store again itself (a notice's handler never waits on the store).
        let page = LivePage(stream: stream, topics: topics) { notice, stream, delivery in
            if notice.topic == LiveTopic.app(appID) {
                guard let text = shown.update(generation: notice.version) else { return true }
                return delivery.send(ServerSentEvent(name: "change", id: text, data: ""), to: stream)
            }
            if notice.topic == LiveTopic.presentation(code) {
                delivery.send(ServerSentEvent(name: "ended", data: ""), to: stream)
                return false
            }
            guard notice.topic == sessionTopic else { return true }
            // Moved to a new id (the presenter logged in or out): the page read again, or the
            // reconnect, finds where the code points now, or that the presentation ended.
            return Self.sessionChanged(notice, shown: shown, stream: stream, delivery: delivery)
        }
        liveStreams.open(page)
        announceAudience(code)
        stream.onClose { [liveStreams] in Self.announceAudience(code, liveStreams) }
        return .response(.stream(stream, headers: ServerSentEvent.streamHeaders))
    }

    /// A page that missed changes (drawn before them, or reconnecting) is told at once; any
    /// other is greeted with the version it is on.
    private static func greet(_ stream: ResponseStream, shown: LiveVersionSeen, request: Request) {
        // The version a reconnecting browser last saw (`Last-Event-ID`), or the one its page
        // was drawn from (`?v=`).
        if let seen = request.headers["Last-Event-ID"] ?? request.query["v"], shown.isNewer(than: seen) {
            stream.write(ServerSentEvent(name: "change", id: shown.text, data: "").bytes)
        } else {
            stream.write(ServerSentEvent(name: "hello", id: shown.text, data: "").bytes)
        }
    }

    /// What a notice of the page's session means to it; false when the stream is done.
    private static func sessionChanged(
        _ notice: ChangeNotice, shown: LiveVersionSeen, stream: ResponseStream, delivery: NoticeDelivery
    ) -> Bool {
        guard notice.version != LiveTopic.gone else {
            // The session moved to a new id: reconnecting finds it by cookie.
            delivery.send(ServerSentEvent(name: "change", data: ""), to: stream)
            return false
        }
        guard let text = shown.update(revision: notice.version) else { return true }
        return delivery.send(ServerSentEvent(name: "change", id: text, data: ""), to: stream)
    }

    /// Tells the presenter's pages on this instance how many follow now.
    private func announceAudience(_ code: String) { Self.announceAudience(code, liveStreams) }

    private static func announceAudience(_ code: String, _ liveStreams: LiveStreams) {
        let count = liveStreams.count(on: LiveTopic.follower(code))
        liveStreams.deliver(ChangeNotice(topic: LiveTopic.audience(code), version: UInt64(count)))
    }

    private static func problemsEvent(_ appID: String, _ served: ServedApps) -> [UInt8] {
        ServerSentEvent(name: "problems", data: (served.problems[appID] ?? []).joined(separator: "\n")).bytes
    }

    // MARK: Present and follow

    /// `POST /{app}/present`: the visitor presents the app under a new follow code (the one
    /// they have, if they present it already), and comes back to the page they were on (the
    /// stage, when the form says `return=stage`). A
    /// presenter's change keeps the code's alias (`Visitors.visit`).
    func present(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        // Drawn whether or not it is used: the seeded id source's order stays the same.
        let code = visitors.newCSRFToken()
        let app = visit.app
        let layout = form["layout"].flatMap { Layout(rawValue: $0) } ?? .bottom
        let replaced = session.presentation.flatMap { $0.appID == app.id ? nil : $0.code }
        if session.presentation?.appID != app.id {
            session.presentation = Presentation(code: code, appID: app.id, layout: layout)
        }
        session.presentation?.layout = layout
        if form["return"] == "stage" { return .redirect(StageLinks.stage(app.id), endingPresentation: replaced) }
        let shown = session.containers[app.id].map {
            TabSelection.shownPath($0, isLoggedIn: session.isLoggedIn, in: layout)
        }
        return .redirect(shown ?? StageLinks.tab(app.id, layout, app.tabs[0].id), endingPresentation: replaced)
    }

    /// `POST /{app}/present/stop`: the follow code is revoked; its followers are told.
    func stopPresenting(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        let stopped = session.presentation
        session.presentation = nil
        if form["return"] == "stage" {
            return .redirect(StageLinks.stage(visit.app.id), endingPresentation: stopped?.code)
        }
        return .redirect(
            StageLinks.layout(visit.app.id, stopped?.layout ?? .bottom), endingPresentation: stopped?.code)
    }

    /// A presenter found by a follow code.
    struct Presenter {
        var id: SessionID
        var session: VisitorSession
    }

    /// The presenter and their session for the path's follow code, when it is honoured.
    private func presented(_ page: PageRequest) throws(SessionStoreError) -> Presenter? {
        let code = page.parameter("code")
        let now = page.now.timeIntervalSince1970
        guard Presentations.isWellFormed(code), let presenter = try visitors.store.session(forAlias: code, now: now),
            let session = try visitors.store.state(of: presenter, now: now),
            let presentation = session.presentation, presentation.code == code, presentation.appID == page.app.id
        else { return nil }
        return Presenter(id: presenter, session: session)
    }

    /// The presenter of a follow page: a presentation that ended is a page that says so.
    func presenter(_ page: PageRequest) throws(SessionStoreError) -> Result<Presenter?, Refusal> {
        .success(try presented(page))
    }

    /// `GET /{app}/follow/{code}`: the presenter's view of the app (the screen their window
    /// shows, `PresentedScreens`), inert, for anyone with the link. Nothing of the presenter's
    /// session is sent but what the page shows: no cookie, no CSRF token, no name. The follower
    /// gets a session of their own (made here if needed): its CSRF token for Leave, and the
    /// language or appearance they choose on the page, which wins over the presenter's.
    func followPage(_ visit: PageVisit, _ presenter: Presenter?, _ session: inout VisitorSession) -> PageAnswer {
        guard let presenter else { return .refusal(.notFound(.presentationEnded)) }
        let app = visit.app
        let (container, _) = TabSelection.currentContainer(presenter.session, of: app, at: visit.now)
        let presentation = presenter.session.presentation
        let content = PresentedScreens.content(
            presentation?.shown, app: app, layout: presentation?.layout ?? .bottom, container: container,
            isLoggedIn: presenter.session.isLoggedIn)
        return .screen(
            container,
            Screen(
                content: content,
                audience: .follower(
                    code: visit.page.parameter("code"), presenterRevision: presenter.session.revision ?? 0,
                    layout: presenter.session.presentation?.layout ?? .bottom,
                    language: Self.followerLanguage(visit, own: session, presenter: presenter.session),
                    appearance: Self.followerAppearance(visit, own: session, presenter: presenter.session))))
    }

    /// A follower's language: the one they chose (`?lang=`, kept in their own session), else the
    /// presenter's choice, else their browser's; each only when it is one of the app's languages.
    static func followerLanguage(_ visit: PageVisit, own: VisitorSession, presenter: VisitorSession) -> PageLanguage {
        let settings = visit.page.settings
        guard let tag = settings.language ?? settings.kept(own) ?? settings.kept(presenter) else {
            return visit.language
        }
        return PageLanguage(tag: tag)
    }

    /// A follower's appearance: the one they chose, else the presenter's, else auto.
    static func followerAppearance(_ visit: PageVisit, own: VisitorSession, presenter: VisitorSession) -> Appearance {
        visit.page.settings.appearance ?? own.appearanceName.flatMap { Appearance(name: $0) }
            ?? presenter.appearanceName.flatMap { Appearance(name: $0) } ?? .auto
    }

    /// `POST /{app}/follow/{code}/leave`: the follower explores on their own from the screen
    /// that was shown (`TabContainer.handedOver`: the visible tab's state, no event log, nothing
    /// of login-only tabs), in the session the follow page gave them.
    func leave(_ visit: PageVisit, _ presenter: Presenter?, _ session: inout VisitorSession) -> PageAnswer {
        guard let presenter else { return .redirect(StageLinks.home) }
        let app = visit.app
        let layout = presenter.session.presentation?.layout ?? .bottom
        let (shown, _) = TabSelection.currentContainer(presenter.session, of: app, at: visit.now)
        let taken = shown.handedOver()
        session.containers[app.id] = taken
        return .redirect(TabSelection.shownPath(taken, isLoggedIn: session.isLoggedIn, in: layout))
    }
}

/// What a live page was last told, so that a notice it already knows is not sent again.
final class LiveVersionSeen: Sendable {
    private let seen: Mutex<LiveVersion>

    init(revision: UInt64, generation: UInt64) {
        seen = Mutex(LiveVersion(revision: revision, generation: generation))
    }

    var text: String { seen.withLock { $0.description } }

    /// Whether a page that shows `version` (`REVISION-GENERATION`) missed something. The page's
    /// own version may run one ahead (it is written before its change commits, which may be
    /// none): only a newer revision, or another generation, counts.
    func isNewer(than version: String) -> Bool {
        let parts = version.split(separator: "-")
        guard parts.count == 2, let revision = UInt64(parts[0]), let generation = UInt64(parts[1]) else { return true }
        return seen.withLock { $0.revision > revision || $0.generation != generation }
    }

    /// The new version text when `revision` is newer than the one shown, else nil.
    func update(revision: UInt64) -> String? {
        seen.withLock { seen in
            guard revision > seen.revision else { return nil }
            seen.revision = revision
            return seen.description
        }
    }

    /// The new version text when `generation` is newer than the one shown, else nil.
    func update(generation: UInt64) -> String? {
        seen.withLock { seen in
            guard generation > seen.generation else { return nil }
            seen.generation = generation
            return seen.description
        }
    }
}
