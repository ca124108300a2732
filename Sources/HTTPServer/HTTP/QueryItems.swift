/// Decoded `name=value` pairs in the order they were sent (a query string or a urlencoded form).
public struct QueryItems: Sendable, Equatable, Sequence {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var items: [Item]

    public init(_ items: [Item] = []) { self.items = items }

    /// Parses `a=1&b=two+words&c`: `+` is a space, a name without `=` has an empty value. Split
    /// at the `&` and `=` bytes.
    public init(parsing encoded: Substring) throws(PercentDecodingError) {
        let bytes = encoded.utf8.span
        var items: [Item] = []
        var pairStart = 0
        while pairStart < bytes.count {
            var pairEnd = pairStart
            var equals: Int?
            while pairEnd < bytes.count && bytes[pairEnd] != UInt8(ascii: "&") {
                if equals == nil && bytes[pairEnd] == UInt8(ascii: "=") { equals = pairEnd }
                pairEnd += 1
            }
            if pairEnd > pairStart {
                let valueStart = equals.map { $0 + 1 } ?? pairEnd
                items.append(
                    Item(
                        name: try PercentDecoding.decode(
                            bytes.extracting(pairStart..<(equals ?? pairEnd)), plusAsSpace: true),
                        value: try PercentDecoding.decode(bytes.extracting(valueStart..<pairEnd), plusAsSpace: true)
                    ))
            }
            pairStart = pairEnd + 1
        }
        self.items = items
    }

    /// The first value sent for `name`.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    public func values(for name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
}
