import ASCII

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes HTML straight into bytes: pages are built by appending UTF-8, never by String
/// interpolation, and text is escaped on its bytes, not its Characters (PERFORMANCE.md has the
/// figures). Every text that did not come from this module goes through `text` or `attribute`,
/// which escape; `raw` takes only markup written here.
public struct HTMLWriter: ~Copyable, @unchecked Sendable {
    /// The page so far, copied.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The page: the bytes written, in an array of their exact size (the writer's own buffer is
    /// given back with it: kept as its thread's spare, `SpareBuffer`, or freed). The array is
    /// the storage of a page given up on this thread (`SparePage`) when one of a fitting size
    /// is held, else a new one.
    public consuming func finish() -> [UInt8] {
        let written = count
        let from = base
        if var page = SparePage.take(fitting: written) {
            // Emptied and filled in place when nothing else holds it (a page still being sent);
            // else an array of the same room is allocated, as it would be without a spare.
            page.removeAll(keepingCapacity: true)
            page.append(contentsOf: UnsafeBufferPointer(start: from, count: written))
            return page
        }
        return [UInt8](unsafeUninitializedCapacity: written) { room, initialized in
            if let to = room.baseAddress { to.initialize(from: from, count: written) }
            initialized = written
        }
    }

    /// `count` bytes written, then room up to `capacity`; only the written part is ever read.
    ///
    /// A buffer the writer owns alone (it cannot be copied, so nothing else can see it): writing
    /// needs no uniqueness check nor retain and release around each piece, as an Array would.
    /// Its pointers never leave this file: `SpareBuffer` holds one only while no writer does.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// The text `repeatedText` last wrote, and where its escaped bytes lie.
    private var repeated: (text: String, written: Range<Int>)?

    public init(capacity: Int = 8192) {
        let capacity = max(capacity, 16)
        if capacity <= SpareBuffer.largest, let spare = SpareBuffer.take(atLeast: capacity) {
            (base, self.capacity) = spare
            return
        }
        // Bytes are trivial values: the room need not be zeroed first, it is written before read.
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { SpareBuffer.keep(base, capacity: capacity) }

    /// Copies `source` after the bytes written so far. Inlined: it runs for every piece of markup.
    @inline(__always)
    private mutating func append(_ source: UnsafeRawBufferPointer) {
        let length = source.count
        guard length > 0, let from = source.baseAddress else { return }
        if count + length > capacity { grow(toHold: count + length) }
        UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: length)
        count += length
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    /// How many bytes are written so far: a mark for `repeatWritten`.
    public var position: Int { count }

    /// Writes again the bytes written at `range` (marks taken with `position`), which were
    /// escaped when they were first written.
    public mutating func repeatWritten(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "not written yet")
        guard !range.isEmpty else { return }
        if count + range.count > capacity { grow(toHold: count + range.count) }
        // The source lies wholly before `count`: the two never overlap.
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Markup written in this module's source.
    @inline(__always)
    public mutating func raw(_ markup: StaticString) {
        append(UnsafeRawBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// A part of an `AppMarkup`, which this module's writers wrote earlier: escaped already.
    mutating func prewritten(_ part: AppMarkup.Part, of markup: AppMarkup) {
        markup.bytes.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[part.range])) }
    }

    /// Markup built from trusted pieces (numbers, already-escaped fragments).
    public mutating func trusted(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Decimal digits, written straight into the page (no String between). A value that fits
    /// an `Int` is worked out as one (a revision counter is well inside it), so the generic
    /// arithmetic of `some BinaryInteger` is not run per digit.
    public mutating func number(_ value: some BinaryInteger) {
        guard let small = Int(exactly: value) else { return trusted(String(value)) }
        if small < 0 { append(UInt8(ascii: "-")) }
        var magnitude = small.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        if count + digits > capacity { grow(toHold: count + digits) }
        // From the last digit back to the first.
        var at = count + digits
        repeat {
            at -= 1
            base[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// Two hexadecimal digits in capitals (`0A`, `FF`).
    public mutating func hexByte(_ value: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        append(digits.utf8Start[Int(value >> 4)])
        append(digits.utf8Start[Int(value & 0x0F)])
    }

    /// Text content, escaped for an element body or a quoted attribute value.
    ///
    /// Runs of bytes that need no escaping are copied whole; only `& < > " '` are replaced.
    public mutating func text(_ value: some StringProtocol) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { escape($0) }
        if done == nil { escape(Array(value.utf8)) }
    }

    /// `text(value)` for a text a page writes several times (the CSRF token of each of its
    /// forms): escaped where it is first written, its bytes copied from there after.
    mutating func repeatedText(_ value: String) {
        if let repeated, repeated.text == value { return repeatWritten(repeated.written) }
        let start = count
        text(value)
        repeated = (value, start..<count)
    }

    private mutating func escape(_ source: [UInt8]) {
        source.withUnsafeBufferPointer { escape($0) }
    }

    /// One pass, room for the worst case (every byte `&quot;`) made first: most texts are short
    /// ids and titles, for which a call to copy each run costs more than the bytes themselves.
    /// Eight bytes are read as one word and stored whole when none of them is to be escaped
    /// (`escapesNone`): tokens, ids and words go a word at a time, and only a word holding a
    /// special byte is written byte by byte.
    private mutating func escape(_ source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress, !source.isEmpty else { return }
        let worst = count + source.count * 6
        if worst > capacity { grow(toHold: worst) }
        var to = base + count
        var offset = 0
        let length = source.count
        while offset + 8 <= length {
            let word = UnsafeRawPointer(from + offset).loadUnaligned(as: UInt64.self)
            if Self.escapesNone(word) {
                UnsafeMutableRawPointer(to).storeBytes(of: word, as: UInt64.self)
                to += 8
            } else {
                for index in offset..<offset + 8 { Self.escapeByte(from[index], at: &to) }
            }
            offset += 8
        }
        while offset < length {
            Self.escapeByte(from[offset], at: &to)
            offset += 1
        }
        count = to - base
    }

    /// Whether none of a word's eight bytes is `& < > " '`: a byte equals `c` exactly when the
    /// word XOR c-in-every-byte has a zero byte there, and `(v - 0x01…) & ~v & 0x80…` is not
    /// zero exactly when `v` has a zero byte. A word of bytes all above `>` (letters, UTF-8)
    /// is answered by the first test alone.
    @inline(__always)
    private static func escapesNone(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each byte set when the byte is above 0x3E: its low seven bits + 0x41
        // carry into the high bit from 0x3F up, and a byte of 0x80 or more has it already.
        if ((word & ~highs) &+ ones &* 0x41 | word) & highs == highs { return true }
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let found =
            hasZeroByte(word ^ (ones &* 0x26)) | hasZeroByte(word ^ (ones &* 0x3C))
            | hasZeroByte(word ^ (ones &* 0x3E)) | hasZeroByte(word ^ (ones &* 0x22))
            | hasZeroByte(word ^ (ones &* 0x27))
        return found == 0
    }

    @inline(__always)
    private static func escapeByte(_ byte: UInt8, at to: inout UnsafeMutablePointer<UInt8>) {
        // Every byte to escape is at most `>` (0x3E); most text is letters above it.
        if byte > UInt8(ascii: ">") {
            to.pointee = byte
            to += 1
            return
        }
        let entity: StaticString
        switch byte {
        case UInt8(ascii: "&"): entity = "&amp;"
        case UInt8(ascii: "<"): entity = "&lt;"
        case UInt8(ascii: ">"): entity = "&gt;"
        case UInt8(ascii: "\""): entity = "&quot;"
        case UInt8(ascii: "'"): entity = "&#39;"
        default:
            to.pointee = byte
            to += 1
            return
        }
        to.update(from: entity.utf8Start, count: entity.utf8CodeUnitCount)
        to += entity.utf8CodeUnitCount
    }

    /// ` name="`: the start of an attribute whose value the caller writes in pieces (escaped
    /// through `text`), then closes with `closeAttribute()`. Inlined: the name is then a constant
    /// where it is written, and its bytes are stored without a call to copy them.
    @inline(__always)
    public mutating func openAttribute(_ name: StaticString) {
        raw(" ")
        raw(name)
        raw("=\"")
    }

    @inline(__always)
    public mutating func closeAttribute() {
        raw("\"")
    }

    /// ` name="value"`, the value escaped.
    @inline(__always)
    public mutating func attribute(_ name: StaticString, _ value: some StringProtocol) {
        openAttribute(name)
        text(value)
        closeAttribute()
    }

    /// A URL path segment or query value, percent-encoded (then safe in an attribute as is):
    /// everything but RFC 3986's unreserved characters becomes `%XX`.
    public mutating func urlComponent(_ value: some StringProtocol) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { percentEncode($0) }
        if done == nil { Array(value.utf8).withUnsafeBufferPointer { percentEncode($0) } }
    }

    /// Room for the worst case (every byte `%XX`) made first, then one pass.
    private mutating func percentEncode(_ source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress, !source.isEmpty else { return }
        let worst = count + source.count * 3
        if worst > capacity { grow(toHold: worst) }
        let hex: StaticString = "0123456789ABCDEF"
        var to = base + count
        for offset in 0..<source.count {
            let byte = from[offset]
            if PercentEscapes.isUnreserved(byte) {
                to.pointee = byte
                to += 1
            } else {
                to[0] = UInt8(ascii: "%")
                to[1] = hex.utf8Start[Int(byte >> 4)]
                to[2] = hex.utf8Start[Int(byte & 0x0F)]
                to += 3
            }
        }
        count = to - base
    }
}

public enum URLComponentEncoding {
    /// `HTMLWriter.urlComponent`'s bytes.
    public static func encode(_ value: some StringProtocol) -> [UInt8] {
        var html = HTMLWriter(capacity: value.utf8.count * 3)
        html.urlComponent(value)
        return html.finish()
    }

    public static func encodedString(_ value: some StringProtocol) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}

/// What a thread keeps between the pages it draws: the writer's buffer (`SpareBuffer`) and the
/// array of a page given up (`SparePage`). One record per thread under one key, made on first
/// use; it and what it holds are freed when the thread ends.
private struct ThreadSpares {
    var buffer: UnsafeMutablePointer<UInt8>? = nil
    var bufferCapacity = 0
    var page: [UInt8] = []

    /// This thread's record; made now when `creating` and there is none.
    static func current(creating: Bool) -> UnsafeMutablePointer<ThreadSpares>? {
        if let record = pthread_getspecific(key) { return record.assumingMemoryBound(to: ThreadSpares.self) }
        guard creating else { return nil }
        let spares = UnsafeMutablePointer<ThreadSpares>.allocate(capacity: 1)
        spares.initialize(to: ThreadSpares())
        guard pthread_setspecific(key, spares) == 0 else {
            spares.deinitialize(count: 1)
            spares.deallocate()
            return nil
        }
        return spares
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
            let free: @convention(c) (UnsafeMutableRawPointer?) -> Void = { record in
                if let record { ThreadSpares.free(record) }
            }
        #else
            let free: @convention(c) (UnsafeMutableRawPointer) -> Void = { ThreadSpares.free($0) }
        #endif
        precondition(pthread_key_create(&key, free) == 0, "no thread-specific key for HTMLWriter's spares")
        return key
    }()

    private static func free(_ record: UnsafeMutableRawPointer) {
        let spares = record.assumingMemoryBound(to: ThreadSpares.self)
        spares.pointee.buffer?.deallocate()
        spares.deinitialize(count: 1)
        spares.deallocate()
    }
}

/// Each thread's spare writer buffer: a page's writer takes it instead of allocating (and
/// freeing) a page-sized buffer, and gives it back when done, so a thread drawing pages one
/// after another reuses one buffer. The buffer only ever belongs to one writer at a time, on
/// the thread that holds it; its bytes are written before they are read, as a new buffer's
/// are. At most one buffer per thread, of `smallest` to `largest` bytes (a smaller one is
/// freed as before, a larger one too).
enum SpareBuffer {
    /// The smallest buffer kept: a page writer's default capacity.
    static let smallest = 8192
    /// The largest buffer kept: bigger pages' buffers are freed, not kept by an idle thread.
    static let largest = 64 * 1024

    /// The thread's spare buffer when it holds one of at least `capacity` bytes, now the caller's.
    static func take(atLeast capacity: Int) -> (UnsafeMutablePointer<UInt8>, Int)? {
        guard let spares = ThreadSpares.current(creating: false), let base = spares.pointee.buffer,
            spares.pointee.bufferCapacity >= capacity
        else { return nil }
        spares.pointee.buffer = nil
        return (base, spares.pointee.bufferCapacity)
    }

    /// Keeps `base` as the thread's spare buffer when it is the right size and larger than the
    /// spare held (which is then freed); frees it otherwise.
    static func keep(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        guard capacity >= smallest, capacity <= largest, let spares = ThreadSpares.current(creating: true) else {
            return base.deallocate()
        }
        if let held = spares.pointee.buffer {
            guard spares.pointee.bufferCapacity < capacity else { return base.deallocate() }
            held.deallocate()
        }
        spares.pointee.buffer = base
        spares.pointee.bufferCapacity = capacity
    }
}

/// Each thread's spare page array: the storage of a page its holder gave up (a page replaced
/// in `RenderedPages`), which the thread's next `HTMLWriter.finish` fills instead of allocating
/// an array (and the page given up freeing its own). Arrays keep their value semantics: a spare
/// that something else still holds (a page being sent) is never written, `finish` gets a new
/// array instead. At most one array per thread; it is taken only when its room fits the page
/// (at least its size, at most twice it), else freed.
public enum SparePage {
    /// The smallest array kept: smaller ones are not worth keeping (glibc serves them from its
    /// small bins, without sorting its free chunks).
    static let smallest = 1024

    /// Gives up `page`: kept as the thread's spare (the one held before is freed).
    public static func keep(_ page: consuming [UInt8]) {
        guard page.capacity >= smallest, page.capacity <= SpareBuffer.largest,
            let spares = ThreadSpares.current(creating: true)
        else { return }
        spares.pointee.page = page
    }

    /// The thread's spare array, now the caller's, when its room fits `count` bytes.
    static func take(fitting count: Int) -> [UInt8]? {
        guard let spares = ThreadSpares.current(creating: false), spares.pointee.page.capacity >= smallest else {
            return nil
        }
        var page: [UInt8] = []
        swap(&page, &spares.pointee.page)
        guard page.capacity >= count, page.capacity <= count * 2 else { return nil }
        return page
    }
}
