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

    /// Parses `a=1&b=two+words&c`: `+` is a space, a name without `=` has an empty value.
    public init(parsing encoded: Substring) throws(PercentDecodingError) {
        var items: [Item] = []
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            items.append(
                Item(
                    name: try PercentDecoding.decode(name, plusAsSpace: true),
                    value: try PercentDecoding.decode(value, plusAsSpace: true)))
        }
        self.items = items
    }

    /// The first value sent for `name`.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    public func values(for name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
}
