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
        var encoded = encoded
        self = try encoded.withUTF8 { bytes in
            Result { () throws(PercentDecodingError) in try QueryItems(parsing: bytes) }
        }.get()
    }

    /// The same on UTF-8 bytes.
    init(parsing encoded: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) {
        var items: [Item] = []
        for pair in encoded.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Slice<UnsafeBufferPointer<UInt8>>
            let value: Slice<UnsafeBufferPointer<UInt8>>
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = pair[..<equals]
                value = pair[(equals + 1)...]
            } else {
                name = pair
                value = pair[pair.endIndex...]
            }
            items.append(
                Item(
                    name: try PercentDecoding.decode(UnsafeBufferPointer(rebasing: name), plusAsSpace: true),
                    value: try PercentDecoding.decode(UnsafeBufferPointer(rebasing: value), plusAsSpace: true)))
        }
        self.items = items
    }

    /// The first value sent for `name`.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    public func values(for name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
}
