import Foundation
import HTTPServer
import Sessions
import Synchronization
import TabModel
import Views

/// Live pages, presenting and following, and apps replaced while serving (docs/live.md).
extension StageApplication {
    /// How long a browser waits before reconnecting a dropped stream.
    static let reconnectMilliseconds = 1000

    func addLiveRoutes(to router: inout Router) {
        router.get("/{app}/live", guarded { [self] request, parameters in try liveStream(request, parameters) })
        router.post("/{app}/present", guarded { [self] request, parameters in try present(request, parameters) })
        router.post(
            "/{app}/present/stop", guarded { [self] request, parameters in try stopPresenting(request, parameters) })
        router.get(
            "/{app}/follow/{code}", guarded { [self] request, parameters in try followPage(request, parameters) })
        router.get(
            "/{app}/follow/{code}/live",
            guarded { [self] request, parameters in try followStream(request, parameters) })
        router.post(
            "/{app}/follow/{code}/leave", guarded { [self] request, parameters in try leave(request, parameters) })
    }

    /// The live part of a visitor's own stage view of `appID`.
    func liveStage(_ appID: String, revision: UInt64, presentation: Presentation?, served: ServedApps) -> LiveStage {
        let version = LiveVersion(revision: revision, generation: served.generation(ofApp: appID))
        guard let presentation, presentation.appID == appID else { return LiveStage(version: version, role: .visitor) }
        let followers = liveStreams.count(on: LiveTopic.follower(presentation.code))
        return LiveStage(version: version, role: .presenting(code: presentation.code, followers: followers))
    }

    // MARK: Streams

    /// `GET /{app}/live`: the stream of the visitor's own pages of an app. It says `change`
    /// whenever the session or the app moved past what the page shows (the page then reads the
    /// state again), `problems` with the app file's problems (empty when there are none),
    /// `followers` with a presenter's audience, and a heartbeat comment when idle.
    func liveStream(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard shelf.current.app(id: appID) != nil else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        let id = sessionID(of: request)
        let now = clock().timeIntervalSince1970
        var revision: UInt64 = 0
        var presentation: Presentation?
        if let id {
            try store.read(id, now: now) { session in
                revision = session.revision ?? 0
                presentation = session.presentation
            }
        }
        // The code is set again where it lapsed: a store that keeps aliases in its process
        // (SQLite) restarted, or no one used the code for the idle timeout.
        if let id, let presentation, try store.session(forAlias: presentation.code, now: now) != id {
            try store.setAlias(presentation.code, to: id, now: now)
        }
        let sessionTopic = id.map(LiveTopic.session)
        var topics = [LiveTopic.app(appID)]
        if let sessionTopic { topics.append(sessionTopic) }
        if let presentation, presentation.appID == appID { topics.append(LiveTopic.audience(presentation.code)) }
        let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat)
        let shelf = self.shelf
        let generation = shelf.current.generation(ofApp: appID)
        let shown = LiveVersionSeen(revision: revision, generation: generation)
        stream.write(ServerSentEvent.retry(milliseconds: Self.reconnectMilliseconds))
        stream.write(problemsEvent(appID, shelf.current))
        if let presentation, presentation.appID == appID {
            let count = liveStreams.count(on: LiveTopic.follower(presentation.code))
            stream.write(ServerSentEvent(name: "followers", data: "\(count)").bytes)
        }
        // A page that missed changes (drawn before them, or reconnecting) is told at once.
        if let seen = lastSeenVersion(request), shown.isNewer(than: seen) {
            stream.write(ServerSentEvent(name: "change", id: shown.text, data: "").bytes)
        } else {
            stream.write(ServerSentEvent(name: "hello", id: shown.text, data: "").bytes)
        }
        liveStreams.open(
            LivePage(stream: stream, topics: topics) { [weak self] notice, stream in
                guard let self else { return false }
                if notice.topic == LiveTopic.app(appID) {
                    stream.write(problemsEvent(appID, shelf.current))
                    guard let text = shown.update(generation: notice.version) else { return true }
                    return stream.write(ServerSentEvent(name: "change", id: text, data: "").bytes)
                }
                guard notice.topic == sessionTopic else {
                    return stream.write(ServerSentEvent(name: "followers", data: "\(notice.version)").bytes)
                }
                guard notice.version != LiveTopic.gone else {
                    // The session moved to a new id: reconnecting finds it by cookie.
                    stream.write(ServerSentEvent(name: "change", data: "").bytes)
                    return false
                }
                guard let text = shown.update(revision: notice.version) else { return true }
                return stream.write(ServerSentEvent(name: "change", id: text, data: "").bytes)
            })
        return .stream(stream, headers: ServerSentEvent.streamHeaders)
    }

    /// `GET /{app}/follow/{code}/live`: a follower's stream, on the presenter's session. It
    /// says `ended` when the presenter stopped (or their session is gone).
    func followStream(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        let code = try parameters.require("code")
        guard let found = try presented(appID: appID, code: code) else {
            return try errorPage(request, .notFound, .presentationEnded)
        }
        let shelf = self.shelf
        let (presenter, session) = (found.id, found.session)
        let shown = LiveVersionSeen(revision: session.revision ?? 0, generation: shelf.current.generation(ofApp: appID))
        let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat)
        stream.write(ServerSentEvent.retry(milliseconds: Self.reconnectMilliseconds))
        if let seen = lastSeenVersion(request), shown.isNewer(than: seen) {
            stream.write(ServerSentEvent(name: "change", id: shown.text, data: "").bytes)
        } else {
            stream.write(ServerSentEvent(name: "hello", id: shown.text, data: "").bytes)
        }
        let sessionTopic = LiveTopic.session(presenter)
        let topics = [LiveTopic.app(appID), sessionTopic, LiveTopic.follower(code), LiveTopic.presentation(code)]
        // Notices may come from another instance: the page is told what they mean, and reads
        // the store again itself (a notice's handler never waits on the store).
        let page = LivePage(stream: stream, topics: topics) { notice, stream in
            if notice.topic == LiveTopic.app(appID) {
                guard let text = shown.update(generation: notice.version) else { return true }
                return stream.write(ServerSentEvent(name: "change", id: text, data: "").bytes)
            }
            if notice.topic == LiveTopic.presentation(code) {
                stream.write(ServerSentEvent(name: "ended", data: "").bytes)
                return false
            }
            guard notice.topic == sessionTopic else { return true }
            guard notice.version != LiveTopic.gone else {
                // Moved to a new id (the presenter logged in or out): the page read again, or the
                // reconnect, finds where the code points now, or that the presentation ended.
                stream.write(ServerSentEvent(name: "change", data: "").bytes)
                return false
            }
            guard let text = shown.update(revision: notice.version) else { return true }
            return stream.write(ServerSentEvent(name: "change", id: text, data: "").bytes)
        }
        liveStreams.open(page)
        announceAudience(code)
        stream.onClose { [weak self] in self?.announceAudience(code) }
        return .stream(stream, headers: ServerSentEvent.streamHeaders)
    }

    /// Tells the presenter's pages on this instance how many follow now.
    private func announceAudience(_ code: String) {
        let count = liveStreams.count(on: LiveTopic.follower(code))
        liveStreams.deliver(ChangeNotice(topic: LiveTopic.audience(code), version: UInt64(count)))
    }

    /// The version a reconnecting browser last saw (`Last-Event-ID`), or the one its page was
    /// drawn from (`?v=`).
    private func lastSeenVersion(_ request: Request) -> String? {
        request.headers["Last-Event-ID"] ?? request.query["v"]
    }

    private func problemsEvent(_ appID: String, _ served: ServedApps) -> [UInt8] {
        ServerSentEvent(name: "problems", data: (served.problems[appID] ?? []).joined(separator: "\n")).bytes
    }

    // MARK: Present and follow

    /// `POST /{app}/present`: the visitor presents the app under a new follow code (the one
    /// they have, if they present it already), and comes back to the page they were on.
    func present(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = shelf.current.app(id: appID) else {
            return try errorPage(request, .notFound, .unknownApp(appID))
        }
        let form = try checkedPost(request, app: app)
        let layout = form["layout"].flatMap { Layout(rawValue: $0) } ?? .bottom
        let code = newCSRFToken()
        var replaced: String?
        let selected = try withVisitor(request, create: false) { session -> String? in
            replaced = session.presentation.flatMap { $0.appID == appID ? nil : $0.code }
            if session.presentation?.appID != appID {
                session.presentation = Presentation(code: code, appID: appID, layout: layout)
            }
            session.presentation?.layout = layout
            return session.containers[appID]?.selectedTabID
        }.result
        if let replaced { try endPresentation(replaced) }
        let now = clock().timeIntervalSince1970
        if let id = sessionID(of: request), let presentation = try store.state(of: id, now: now)?.presentation {
            try store.setAlias(presentation.code, to: id, now: now)
        }
        return StageResponses.redirect(to: StageLinks.tab(appID, layout, selected ?? app.tabs[0].id))
    }

    /// `POST /{app}/present/stop`: the follow code is revoked; its followers are told.
    func stopPresenting(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = shelf.current.app(id: appID) else {
            return try errorPage(request, .notFound, .unknownApp(appID))
        }
        _ = try checkedPost(request, app: app)
        let stopped = try withVisitor(request, create: false) { session -> Presentation? in
            defer { session.presentation = nil }
            return session.presentation
        }.result
        if let stopped { try endPresentation(stopped.code) }
        let layout = stopped?.layout ?? .bottom
        return StageResponses.redirect(to: StageLinks.layout(appID, layout))
    }

    /// Revokes a follow code in the store, and tells its followers on every instance.
    private func endPresentation(_ code: String) throws(SessionStoreError) {
        try store.setAlias(code, to: nil, now: clock().timeIntervalSince1970)
        hub.publish(ChangeNotice(topic: LiveTopic.presentation(code), version: LiveTopic.gone))
    }

    /// A presenter found by a follow code.
    struct Presenter {
        var id: SessionID
        var session: VisitorSession
    }

    /// The presenter and their session for a follow code of `appID`, when it is honoured.
    private func presented(appID: String, code: String) throws(SessionStoreError) -> Presenter? {
        let now = clock().timeIntervalSince1970
        guard Presentations.isWellFormed(code), let presenter = try store.session(forAlias: code, now: now),
            let session = try store.state(of: presenter, now: now),
            let presentation = session.presentation, presentation.code == code, presentation.appID == appID
        else { return nil }
        return Presenter(id: presenter, session: session)
    }

    /// `GET /{app}/follow/{code}`: the presenter's view of the app, inert, for anyone with the
    /// link. Nothing of the presenter's session is sent but what the page shows: no cookie, no
    /// CSRF token, no name.
    func followPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        let code = try parameters.require("code")
        let served = shelf.current
        guard let appIndex = served.index(ofApp: appID), let session = try presented(appID: appID, code: code)?.session
        else {
            let chrome = try chrome(request).result
            var response = StageResponses.page(
                ErrorPage.document(status: 404, message: .presentationEnded, chrome: chrome), status: .notFound)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        let app = served.apps[appIndex]
        let layout = session.presentation?.layout ?? .bottom
        let (container, _) = currentContainer(session, of: app, at: clock())
        // The follower's own language; nothing of their session changes here.
        let language = try withVisitor(request, create: false) { keptLanguage(request, $0) }.result
        let content: StageContent = .tab(id: container.selectedTabID ?? app.tabs[0].id)
        let context = StageContext(
            chrome: ChromeContext(
                language: language, app: app, layout: layout, currentPath: StageLinks.follow(appID, code)),
            app: app, layout: layout, container: container, content: content, markup: served.markups[appIndex],
            live: LiveStage(
                version: LiveVersion(revision: session.revision ?? 0, generation: served.generation(ofApp: appID)),
                role: .following(code: code)))
        return render(context, status: .ok, request: request, framing: .denied)
    }

    /// `POST /{app}/follow/{code}/leave`: the follower gets their own copy of the app's state as
    /// shown (in their session, made if needed) and carries on there.
    func leave(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        let code = try parameters.require("code")
        guard isSameOrigin(request) else { return try errorPage(request, .forbidden, nil) }
        guard let app = shelf.current.app(id: appID),
            let presenterSession = try presented(appID: appID, code: code)?.session
        else {
            return StageResponses.redirect(to: StageLinks.home)
        }
        let layout = presenterSession.presentation?.layout ?? .bottom
        let (shown, _) = currentContainer(presenterSession, of: app, at: clock())
        let newID = try withVisitor(request, create: true) { session in
            session.containers[appID] = shown
        }.newSession
        var response = StageResponses.redirect(
            to: StageLinks.tab(appID, layout, shown.selectedTabID ?? app.tabs[0].id))
        attachCookie(newID, to: &response)
        return response
    }

    // MARK: Apps replaced while serving

    /// Serves `app` in place of the app `replacedID` (usually its own id): every open page of it
    /// hears, and each visitor's container moves onto the new tabs when next read.
    @discardableResult
    public func replaceApp(_ replacedID: String, with app: AppDescription) -> Bool {
        guard let served = shelf.replace(replacedID, with: app) else { return false }
        hub.publish(ChangeNotice(topic: LiveTopic.app(app.id), version: served.generation(ofApp: app.id)))
        if replacedID != app.id {
            hub.publish(ChangeNotice(topic: LiveTopic.app(replacedID), version: served.generation(ofApp: app.id)))
        }
        return true
    }

    /// Marks the app's file invalid (`problems`, as `tabstage check` prints them) or valid again
    /// (empty): its open pages show them in a banner.
    public func reportProblems(_ problems: [String], forApp appID: String) {
        shelf.report(problems, forApp: appID)
        hub.publish(ChangeNotice(topic: LiveTopic.app(appID), version: shelf.current.generation(ofApp: appID)))
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
