import HTTPServer
import Sessions
import Synchronization

/// The topics of the change hub, in one place: a session, an app, a presentation's audience.
enum LiveTopic {
    /// The version of a session's notice that says the session is gone (moved to a new id at
    /// log-in or log-out, or expired): its pages reconnect, and find the new one by cookie.
    static let gone: UInt64 = 0

    static func session(_ id: SessionID) -> String { "session:" + id.description }
    static func app(_ id: String) -> String { "app:" + id }
    /// How many follow a presentation (local to this instance: it counts this instance's streams).
    static func audience(_ code: String) -> String { "audience:" + code }
    /// A presentation's own notices: `gone` when the presenter stopped it (on any instance).
    static func presentation(_ code: String) -> String { "presentation:" + code }
    /// Where a follower's page is counted; nothing is published on it.
    static func follower(_ code: String) -> String { "follower:" + code }
}

/// One open live page: the stream it listens on and what to tell it on a notice.
final class LivePage: Sendable {
    let stream: ResponseStream
    let topics: [String]
    /// Sends what a notice means to this page through the delivery (`NoticeDelivery.send`);
    /// false when the page is done (its stream is then finished).
    let hear: @Sendable (ChangeNotice, ResponseStream, NoticeDelivery) -> Bool

    init(
        stream: ResponseStream, topics: [String],
        hear: @escaping @Sendable (ChangeNotice, ResponseStream, NoticeDelivery) -> Bool
    ) {
        self.stream = stream
        self.topics = topics
        self.hear = hear
    }
}

/// One notice's way to its pages, used by the one thread that delivers it.
///
/// Each event is encoded once for every page that sends it: the followers of a presenter are
/// all told the same `change`, and ten thousand of them cost one encoding (each stream copies
/// the bytes into its own buffer). The streams are written first and woken together at the
/// end (`ResponseStream.write(_:waking:)` says why).
final class NoticeDelivery {
    private var last: (event: ServerSentEvent, bytes: [UInt8])?
    private var written: [ResponseStream] = []
    /// How many events the delivery encoded.
    private(set) var encodings = 0

    init(pages: Int) { written.reserveCapacity(pages) }

    /// Queues `event` on `stream`; false once the stream is over.
    @discardableResult
    func send(_ event: ServerSentEvent, to stream: ResponseStream) -> Bool {
        let bytes: [UInt8]
        if let last, last.event == event {
            bytes = last.bytes
        } else {
            bytes = event.bytes
            last = (event, bytes)
            encodings += 1
        }
        return send(bytes, to: stream)
    }

    /// Queues bytes made by the page itself on `stream`; false once the stream is over.
    @discardableResult
    func send(_ bytes: [UInt8], to stream: ResponseStream) -> Bool {
        guard stream.write(bytes, waking: false) else { return false }
        written.append(stream)
        return true
    }

    /// Wakes every stream written to, so that they send.
    func wakeAll() {
        for stream in written { stream.wake() }
        written = []
    }
}

/// The open live pages of this process, by topic, under one subscription to the hub: a notice
/// costs a dictionary lookup and one write per page that shows it.
final class LiveStreams: Sendable {
    private struct Book {
        var pages: [String: [ObjectIdentifier: LivePage]] = [:]
    }

    private let book = Mutex(Book())
    private let hub: any ChangeHub

    init(hub: any ChangeHub) {
        self.hub = hub
        _ = hub.subscribe { [weak self] notice in self?.deliver(notice) }
    }

    /// Listens for `page`'s topics until its stream closes.
    func open(_ page: LivePage) {
        let key = ObjectIdentifier(page)
        book.withLock { book in
            for topic in page.topics { book.pages[topic, default: [:]][key] = page }
        }
        page.stream.onClose { [weak self] in
            self?.book.withLock { book in
                for topic in page.topics {
                    book.pages[topic]?[key] = nil
                    if book.pages[topic]?.isEmpty == true { book.pages[topic] = nil }
                }
            }
        }
    }

    /// How many open pages listen on `topic`.
    func count(on topic: String) -> Int { book.withLock { $0.pages[topic]?.count ?? 0 } }

    /// Hands `notice` to the pages of its topic (on the publishing thread; each only writes).
    /// Returns how many events were encoded for them.
    @discardableResult
    func deliver(_ notice: ChangeNotice) -> Int {
        let pages = book.withLock { book in book.pages[notice.topic].map { Array($0.values) } ?? [] }
        let delivery = NoticeDelivery(pages: pages.count)
        for page in pages where !page.hear(notice, page.stream, delivery) { page.stream.finish() }
        delivery.wakeAll()
        return delivery.encodings
    }
}
