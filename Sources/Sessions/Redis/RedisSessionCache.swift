import Synchronization

/// Decoded sessions this instance has read from or written to Redis, so that a page read needs
/// no round trip and a change needs one.
///
/// An entry is **fresh** while every change to its key is sure to be heard: it was fetched with
/// a `GET` while the store's channel was listened to (`RedisSubscription`), and no notice about
/// its key (a change's message naming it) has come since the fetch was sent. Only a fresh entry answers a read; Redis stays the truth, and the
/// table only remembers what Redis said last.
///
/// An entry that is not fresh can still be a good **guess** for a change: the compare-and-set
/// that commits it checks the guess against what Redis holds, and a wrong guess costs one more
/// round trip. This instance's own write is a good guess until a second notice about it comes
/// (the first is most likely that write's own message); an entry another write has
/// overtaken is not, and a change then reads the session first.
///
/// Stamps order the fetches against the notices: a fetch takes a stamp before it is sent, and a
/// notice about its key (or a loss of the listener) after that stamp keeps it from being fresh,
/// whichever thread sees the reply or the notice first.
final class RedisSessionCache<State: Sendable>: Sendable {
    /// What Redis held for a key, decoded, and until when it lives there (seconds, as `now`).
    struct Entry: Sendable {
        var stored: [UInt8]
        var state: State
        var expiresAt: Double
    }

    /// An entry found, whether a read may trust it without asking Redis, and whether a change
    /// had better start from it than from a read (a fresh entry, or this instance's own write
    /// that no other notice has followed).
    struct Found {
        let entry: Entry
        let isFresh: Bool
        let isLikelyCurrent: Bool
    }

    /// Taken before a fetch is sent; hands the reply to `fetched`.
    struct Fetch {
        let key: SessionID
        let stamp: UInt64
    }

    private struct Kept {
        var entry: Entry
        var fresh: Bool
        /// Whether this instance wrote it, and how many notices about its key came since.
        var written = false
        var notices = 0
    }

    /// A fetch of a key in flight: how many, and the stamp of the last notice about the key
    /// since the first of them was sent.
    private struct InFlight {
        var fetches: Int
        var noticedAt: UInt64
    }

    private struct Table {
        var kept: [SessionID: Kept] = [:]
        var inFlight: [SessionID: InFlight] = [:]
        /// Counts fetches sent and notices heard: the order of the two.
        var clock: UInt64 = 0
        /// The stamp of the last time the listener was lost or began again.
        var resetAt: UInt64 = 0
        var listening = false
    }

    /// The most sessions kept; past it an arbitrary one leaves.
    let capacity: Int
    private let table = Mutex(Table())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The entry of `key` while it has not expired, and whether a read may trust it: fresh, and
    /// its expiry further away than `refreshMargin` seconds (a use closer to it must reach Redis
    /// to push it back).
    func look(_ key: SessionID, now: Double, refreshMargin: Double) -> Found? {
        table.withLock { table in
            guard let kept = table.kept[key], kept.entry.expiresAt > now else { return nil }
            let trusted = table.listening && kept.fresh && kept.entry.expiresAt - refreshMargin > now
            let likely = trusted || (kept.written && kept.notices <= 1)
            return Found(entry: kept.entry, isFresh: trusted, isLikelyCurrent: likely)
        }
    }

    /// Call before sending a fetch of `key`.
    func fetching(_ key: SessionID) -> Fetch {
        table.withLock { table in
            table.clock += 1
            table.inFlight[key, default: InFlight(fetches: 0, noticedAt: 0)].fetches += 1
            return Fetch(key: key, stamp: table.clock)
        }
    }

    /// What the fetch found (nil: no session, or one that does not decode); kept fresh when no
    /// notice about the key came after the fetch was sent and the listener listened throughout.
    func fetched(_ fetch: Fetch, _ entry: Entry?) {
        table.withLock { table in
            guard var flight = table.inFlight[fetch.key] else { return }
            let fresh = table.listening && table.resetAt < fetch.stamp && flight.noticedAt < fetch.stamp
            flight.fetches -= 1
            table.inFlight[fetch.key] = flight.fetches > 0 ? flight : nil
            guard let entry else {
                table.kept[fetch.key] = nil
                return
            }
            Self.keep(Kept(entry: entry, fresh: fresh), at: fetch.key, in: &table, capacity: capacity)
        }
    }

    /// This instance wrote `entry` at `key` (nil: removed it): kept as a guess, not fresh, since
    /// another instance may write after it before Redis's notice of this write comes.
    func wrote(_ key: SessionID, _ entry: Entry?) {
        table.withLock { table in
            guard let entry else {
                table.kept[key] = nil
                return
            }
            Self.keep(Kept(entry: entry, fresh: false, written: true), at: key, in: &table, capacity: capacity)
        }
    }

    /// A change of `key` was sent and its answer never came: it may have been made, and its
    /// notice may never come. The entry leaves, and a fetch already in flight is not fresh, so
    /// the next read asks Redis.
    func forget(_ key: SessionID) {
        table.withLock { table in
            table.clock += 1
            table.kept[key] = nil
            table.inFlight[key]?.noticedAt = table.clock
        }
    }

    /// Redis said these sessions changed.
    func changed(_ keys: [SessionID]) {
        table.withLock { table in
            table.clock += 1
            for key in keys {
                table.kept[key]?.fresh = false
                table.kept[key]?.notices += 1
                table.inFlight[key]?.noticedAt = table.clock
            }
        }
    }

    /// Redis said every key may have changed (a flush), or the listener was lost (`listening`
    /// false) or began again: nothing read before now is fresh.
    func reset(listening: Bool) {
        table.withLock { table in
            table.clock += 1
            table.resetAt = table.clock
            table.listening = listening
            // What was written before is no longer known to be followed by one notice only.
            table.kept = table.kept.mapValues { Kept(entry: $0.entry, fresh: false) }
        }
    }

    private static func keep(_ kept: Kept, at key: SessionID, in table: inout Table, capacity: Int) {
        if table.kept[key] == nil, table.kept.count >= capacity {
            table.kept.remove(at: table.kept.startIndex)
        }
        table.kept[key] = kept
    }
}
