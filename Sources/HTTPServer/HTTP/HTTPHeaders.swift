import ASCII

/// Header fields in the order they were added; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field] = []

    /// Set by `checked()`: every field is one libmicrohttpd accepts and `X-Content-Type-Options`
    /// is there, so the server sends the fields as they are. Any change clears it; `==` ignores it.
    private(set) var isChecked = false

    public init() {}
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`; setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            isChecked = false
            if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }), let newValue {
                fields[index].value = newValue
                let keep = index
                fields = fields.enumerated().filter { $0.offset == keep || !Self.sameName($0.element.name, name) }
                    .map(\.element)
            } else if let newValue {
                fields.append(Field(name: name, value: newValue))
            } else {
                fields.removeAll { Self.sameName($0.name, name) }
            }
        }
    }

    /// Every value for `name`, in order (for repeated fields such as Set-Cookie).
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { fields.contains { Self.sameName($0.name, name) } }

    /// Adds a field even if one of the same name exists.
    public mutating func add(name: String, value: String) {
        isChecked = false
        fields.append(Field(name: name, value: value))
    }

    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// These fields with `X-Content-Type-Options: nosniff` added if missing, checked once for
    /// what libmicrohttpd refuses (CR, LF, NUL, an empty name). For fields kept and sent often
    /// (a table of page headers built at start): the server then neither checks them again nor
    /// looks for `X-Content-Type-Options` per response. A field that fails leaves them unchecked,
    /// and the server answers 500 as for any such field.
    public func checked() -> HTTPHeaders {
        var copy = self
        copy.addNoSniff()
        copy.isChecked = Server.areSafe(copy)
        return copy
    }

    /// `X-Content-Type-Options: nosniff` unless the field is there: no response may be sniffed
    /// into another type (an upload read as HTML, say). The server adds it to every response it
    /// sends; a router's response used without the server (an in-process replay) adds it here.
    public mutating func addNoSniff() {
        if self["X-Content-Type-Options"] == nil { self["X-Content-Type-Options"] = "nosniff" }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool { lhs.fields == rhs.fields }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Field names are ASCII tokens: compare bytes with ASCII case folding, allocating nothing
    /// (this runs several times per response).
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings are contiguous: a loop over two buffers (zip's iterators cost several
        // times as much); anything else takes the same comparison byte by byte.
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in left.indices where !sameByte(left[index], right[index]) { return false }
                return true
            }
        }
        if let compared = compared ?? nil { return compared }
        return zip(lhs.utf8, rhs.utf8).allSatisfy(sameByte)
    }

    private static func sameByte(_ left: UInt8, _ right: UInt8) -> Bool {
        ASCIICase.lowercased(left) == ASCIICase.lowercased(right)
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
