import Foundation
import Synchronization
import Views

/// The last stage pages drawn, each kept beside the context it was drawn from: a page asked for
/// again with an equal context (a reload of the screen on show) is sent as it was drawn, not
/// drawn again.
///
/// A stage page is a function of its context alone (`StagePage` reads nothing else), so the
/// bytes sent for a context are the bytes drawing it gives, whoever asks. What is a visitor's
/// own (their CSRF token, name, container) is part of the context: a page holding it is only
/// ever sent for a context holding the same.
///
/// Bounded: a fixed number of slots, each holding at most one page of at most `largestPage`
/// bytes; a context takes the slot its token, path and kind choose, replacing what was there.
final class RenderedPages: Sendable {
    /// The whole document, or the stage alone (`X-TabStage-Fragment`).
    enum Kind: Hashable {
        case document
        case fragment
    }

    static let largestPage = 32 * 1024

    /// A page as drawn, never changed: read outside its slot's lock.
    private final class Drawn: Sendable {
        let kind: Kind
        let context: StageContext
        let bytes: [UInt8]

        /// Draws the page, and keeps the context it was drawn from.
        init(_ kind: Kind, of context: consuming StageContext) {
            self.kind = kind
            bytes =
                switch kind {
                case .document: StagePage.document(context)
                case .fragment: StagePage.fragment(context)
                }
            self.context = context
        }

        /// Whether this is the page `context` draws as `kind`. The live version (the session's
        /// revision) is compared first: a visitor's context that changed says so there, told
        /// apart without comparing the rest.
        func isPage(_ kind: Kind, of context: borrowing StageContext) -> Bool {
            self.kind == kind && self.context.live?.version == context.live?.version && self.context == context
        }
    }

    /// One slot, locked alone (only to take or put its page): requests of other slots never
    /// wait for it.
    private final class Slot: Sendable {
        let drawn = Mutex<Drawn?>(nil)
    }

    private let slots: [Slot]
    /// Whether a kept page is sent again; when not, every page is drawn (and kept as usual).
    private let resends: Bool

    /// `TABSTAGE_PAGE_CACHE=0` exists only to measure the drawing of a page
    /// (`bench/http-callgrind.sh`): pages are still kept, so keeping them is counted, but never
    /// sent again. Read once per process.
    static let resendsByEnvironment = ProcessInfo.processInfo.environment["TABSTAGE_PAGE_CACHE"] != "0"

    init(slots: Int = 32, resends: Bool = RenderedPages.resendsByEnvironment) {
        self.slots = (0..<max(slots, 1)).map { _ in Slot() }
        self.resends = resends
    }

    /// The page of `context`, drawn now or as it was drawn for an equal context.
    func page(_ kind: Kind, of context: consuming StageContext) -> [UInt8] {
        let slot = slots[Self.slotIndex(kind, context, among: slots.count)]
        if resends, let drawn = slot.drawn.withLock({ $0 }), drawn.isPage(kind, of: context) {
            return drawn.bytes
        }
        let drawn = Drawn(kind, of: context)
        guard drawn.bytes.count <= Self.largestPage else { return drawn.bytes }
        // The page replaced: its array becomes this thread's next page (`SparePage`) instead of
        // being freed, when this was its last holder but for pages still being sent.
        var replaced: Drawn? = drawn
        slot.drawn.withLock { swap(&$0, &replaced) }
        if isKnownUniquelyReferenced(&replaced), let bytes = replaced?.bytes { SparePage.keep(bytes) }
        return drawn.bytes
    }

    /// The slot of a page: one visitor's pages (by token) spread over the slots by path and
    /// kind. FNV-1a over their bytes: a page's slot needs no stronger hash.
    private static func slotIndex(_ kind: Kind, _ context: borrowing StageContext, among count: Int) -> Int {
        let start: UInt64 = kind == .document ? 0xcbf2_9ce4_8422_2325 : 0x8422_2325_cbf2_9ce4
        let hash = mix(context.chrome.currentPath, into: mix(context.chrome.csrfToken ?? "", into: start))
        return Int(hash % UInt64(count))
    }

    private static func mix(_ text: String, into start: UInt64) -> UInt64 {
        func mix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash = start
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        return text.utf8.withContiguousStorageIfAvailable(mix) ?? Array(text.utf8).withUnsafeBufferPointer(mix)
    }
}
