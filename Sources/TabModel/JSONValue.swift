import ASCII

/// A parsed JSON document that keeps object members in document order and numbers as written,
/// so validation can report problems in reading order and tell `1` from `1.5` from `true`.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// "a string", "an object", ... for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

struct JSONMember: Equatable {
    var key: String
    var value: JSONValue
}

/// A line and a column in a document, both counted from 1; columns count characters.
public struct SourcePosition: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of the byte at `offset` in UTF-8 `bytes`.
    init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.init(line: line, column: column)
    }

    public static func < (left: SourcePosition, right: SourcePosition) -> Bool {
        (left.line, left.column) < (right.line, right.column)
    }

    /// `line:column`, as compilers print it after a file name.
    public var description: String { "\(line):\(column)" }
}

/// Where and why a document is not JSON.
struct JSONSyntaxError: Error, Equatable {
    var position: SourcePosition
    var reason: String
}

/// A parsed document and where each of its values starts.
struct JSONDocument {
    var value: JSONValue
    /// The byte offsets where the value at each path starts, every occurrence in reading order
    /// (a duplicated key has several). Paths are written as the validator writes them: `tabs`,
    /// `tabs[3]`, `tabs[3].title.en`; the document itself is the empty path.
    var offsets: [String: [Int]]
    var bytes: [UInt8]

    /// The start of the value at `path` (its `occurrence`-th, else its last), or of the nearest
    /// value containing it: a missing key is found at the object that lacks it.
    func position(of path: String, occurrence: Int = 0) -> SourcePosition {
        var path = path
        while true {
            if let found = offsets[path], let last = found.last {
                return SourcePosition(offset: occurrence < found.count ? found[occurrence] : last, in: bytes)
            }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else {
                return SourcePosition(offset: offsets[""]?.first ?? 0, in: bytes)
            }
            path = String(path[..<cut])
        }
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
struct JSONParser {
    /// Deeper nesting is refused rather than risking the stack.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0
    private var offsets: [String: [Int]] = [:]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try parseDocument(bytes).value
    }

    /// The value and where each part of it starts.
    static func parseDocument(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(at: "")
        parser.skipWhitespace()
        if parser.offset < bytes.count {
            throw parser.error(
                "expected the end of the file after its value (a file holds one value), found "
                    + parser.describeCurrent())
        }
        return JSONDocument(value: value, offsets: parser.offsets, bytes: bytes)
    }

    private func error(_ reason: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(position: SourcePosition(offset: position ?? offset, in: bytes), reason: reason)
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// What is at the current position, for "expected …, found …": named by what people mistype
    /// in JSON (comments, single and typographic quotes), any other character shown as itself.
    private func describeCurrent() -> String {
        guard let byte = current else { return "the end of the file" }
        if byte == UInt8(ascii: "/"), offset + 1 < bytes.count,
            bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")
        {
            return "a comment (JSON has no comments)"
        }
        if byte == UInt8(ascii: "'") { return "a single quote (JSON strings use straight double quotes \")" }
        guard let scalar = scalar(at: offset) else {
            return "the byte 0x" + String(byte, radix: 16, uppercase: true) + " (not UTF-8 text)"
        }
        if Self.typographicQuotes.contains(scalar) {
            return "a typographic quote '\(Character(scalar))' (JSON strings use straight double quotes \")"
        }
        if scalar.value < 0x20 {
            return "the control character U+" + String(scalar.value, radix: 16, uppercase: true)
        }
        return "'\(Character(scalar))'"
    }

    /// Where a value sits, in words: `the value of "title"` (a member, by its key), `tabs[2]`
    /// (an array's item, by its path), `the file's value` (the document).
    private static func place(of path: String) -> String {
        guard !path.isEmpty else { return "the file's value" }
        if path.hasSuffix("]") { return path }
        let key = path.split(separator: ".").last.map(String.init) ?? path
        return "the value of \"\(key)\""
    }

    /// Quotes a word processor puts in place of `"` and `'`.
    private static let typographicQuotes: Set<Unicode.Scalar> = [
        "\u{201C}", "\u{201D}", "\u{201E}", "\u{2018}", "\u{2019}", "\u{201A}", "\u{00AB}", "\u{00BB}",
    ]

    /// The Unicode scalar whose UTF-8 encoding starts at `start`, nil for invalid UTF-8.
    private func scalar(at start: Int) -> Unicode.Scalar? {
        let lead = bytes[start]
        let length =
            switch lead {
            case 0..<0x80: 1
            case 0xC2..<0xE0: 2
            case 0xE0..<0xF0: 3
            case 0xF0..<0xF5: 4
            default: 0
            }
        guard length > 0, start + length <= bytes.count else { return nil }
        let text = String(validating: bytes[start..<start + length], as: UTF8.self)
        return text?.unicodeScalars.first
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private mutating func parseValue(at path: String) throws(JSONSyntaxError) -> JSONValue {
        offsets[path, default: []].append(offset)
        switch current {
        case UInt8(ascii: "{"): return try parseObject(at: path)
        case UInt8(ascii: "["): return try parseArray(at: path)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return try parseNumber()
        default: throw error("expected " + Self.place(of: path) + ", found " + describeCurrent())
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[offset...].starts(with: expected) else { throw error("expected '\(word)'") }
        offset += expected.count
        return value
    }

    private mutating func enterNesting() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    /// After a comma, the member or element that must follow; a closing bracket there is the
    /// trailing comma JavaScript allows and JSON does not.
    private func refuseTrailingComma(before closing: UInt8, commaAt comma: Int) throws(JSONSyntaxError) {
        guard current == closing else { return }
        let bracket = Character(Unicode.Scalar(closing))
        throw error("a trailing comma before '\(bracket)'; JSON allows no comma after the last item", at: comma)
    }

    private mutating func parseObject(at path: String) throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        offset += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        var previous: String?
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                let after = previous.map { " after the value of \"\($0)\" and its ','" } ?? ""
                throw error("expected a key in quotes" + after + ", found " + describeCurrent())
            }
            let key = try parseString()
            previous = key
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\", found " + describeCurrent())
            }
            offset += 1
            skipWhitespace()
            members.append(JSONMember(key: key, value: try parseValue(at: path.isEmpty ? key : path + "." + key)))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                let comma = offset
                offset += 1
                skipWhitespace()
                try refuseTrailingComma(before: UInt8(ascii: "}"), commaAt: comma)
            } else if current == UInt8(ascii: "}") {
                offset += 1
                depth -= 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' after the value of \"\(key)\", found " + describeCurrent())
            }
        }
    }

    private mutating func parseArray(at path: String) throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(at: path + "[" + String(elements.count) + "]"))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                let comma = offset
                offset += 1
                skipWhitespace()
                try refuseTrailingComma(before: UInt8(ascii: "]"), commaAt: comma)
            } else if current == UInt8(ascii: "]") {
                offset += 1
                depth -= 1
                return .array(elements)
            } else {
                let item = path + "[" + String(elements.count - 1) + "]"
                throw error("expected ',' or ']' after " + Self.place(of: item) + ", found " + describeCurrent())
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else if try digits() == 0 {
            throw error("expected a digit, found " + describeCurrent())
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            if try digits() == 0 { throw error("expected a digit after '.', found " + describeCurrent()) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            if try digits() == 0 { throw error("expected a digit in the exponent, found " + describeCurrent()) }
        }
        return .number(String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    private mutating func digits() throws(JSONSyntaxError) -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
            count += 1
        }
        return count
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = offset
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated string", at: start) }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw error("invalid UTF-8 in string", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                try appendEscape(to: &utf8)
            case 0..<0x20:
                throw error("control character in string; write it as an escape", at: offset - 1)
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("unterminated string") }
        offset += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'") }
        var scalarValue = try hexQuad()
        if (0xD800...0xDBFF).contains(scalarValue) {
            guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw error("unpaired surrogate in \\u escape")
            }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("unpaired surrogate in \\u escape") }
        utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    /// The four hex digits of a `\u` escape, of either case; nothing else (no sign) counts.
    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = HexDigit.value(byte) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }
}
