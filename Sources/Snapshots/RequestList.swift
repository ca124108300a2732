import ASCII
import Foundation
import HTTPServer
import TabStageApp

/// A request list for `tabstage snapshot`, as written in its file (docs/snapshots.md):
///
///     # comments on a line of their own, or after a request
///     redact: X-Request-Id          a header kept with its value hidden
///     redact: /order-([0-9]+)/      a pattern: each match (or its first group) hidden
///     name: first-visit             names the next request
///     GET /coffee/bottom/menu
///       Accept-Language: zh-TW      headers, indented under their request
///       expect 200                  the status it must answer
///     POST /coffee/bottom/menu/action action=search&q="flat white"   # as: search
///     TAP /coffee/bottom/menu       a bar tap (X-TabStage-Source: tap)
///     FRAGMENT /coffee/bottom/menu  the script's fragment request (X-TabStage-Fragment: 1)
///
/// Every request has a name, which names its snapshot file: given with `# as: NAME` or a
/// `name:` line, or made from the method and the path, with `-2`, `-3`… for repeats. Line
/// numbers play no part, so editing the list around a request keeps its file.
public struct RequestList {
    var requests: [ReplayRequest]
    /// Lowercased names of the headers written with their value hidden.
    var redactedHeaders: Set<String>
    var patterns: [Redactor.Pattern]

    public init(parsing text: String) throws(RequestListError) {
        var parser = Parser()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            try parser.read(String(line.hasSuffix("\r") ? line.dropLast() : line), number: index + 1)
        }
        self = try parser.finish()
    }

    init(requests: [ReplayRequest], redactedHeaders: Set<String> = [], patterns: [Redactor.Pattern] = []) {
        self.requests = requests
        self.redactedHeaders = redactedHeaders
        self.patterns = patterns
    }
}

/// A problem in a request list, at a line (1-based).
public struct RequestListError: Error, Equatable, CustomStringConvertible {
    var line: Int
    var message: String

    /// `7: a form value with a space must be quoted or encoded`; the command puts the file first.
    public var description: String { "\(line): \(message)" }
}

/// One request of a list, ready to send.
struct ReplayRequest: Equatable, Sendable {
    /// How the list wrote the request's method: a tap and a fragment are GETs with a header.
    enum Kind: String, Sendable, CaseIterable {
        case get = "GET"
        case post = "POST"
        case tap = "TAP"
        case fragment = "FRAGMENT"

        var method: HTTPMethod { self == .post ? .post : .get }

        /// The headers the short form stands for.
        var impliedHeaders: [Header] {
            switch self {
            case .get, .post: []
            case .tap: [Header(name: StageResponses.sourceHeader, value: "tap")]
            case .fragment: [Header(name: StageResponses.fragmentHeader, value: "1")]
            }
        }
    }

    struct Header: Equatable, Sendable {
        var name: String
        var value: String
    }

    /// One posted field, its value percent-encoded as it is sent.
    struct FormField: Equatable, Sendable {
        var name: String
        var encodedValue: String
    }

    var line: Int
    var name: String
    var kind: Kind
    var target: String
    /// nil for a request that posts nothing (every kind but POST).
    var form: [FormField]?
    /// The short form's headers, then the list's, in order.
    var headers: [Header]
    var expectedStatus: Int?

    /// `POST /coffee/bottom/stamps/action action=increment`, the way a snapshot names its request.
    var summary: String {
        var text = kind.rawValue + " " + target
        if let form, !form.isEmpty { text += " " + form.map { $0.name + "=" + $0.encodedValue }.joined(separator: "&") }
        return text
    }

    /// `post-coffee-bottom-stamps-action`: the method and the path (with its query) in lowercase
    /// letters, digits and dashes.
    static func derivedName(kind: Kind, target: String) -> String {
        var slug = kind.rawValue.lowercased()
        for character in target.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        return String(slug.prefix(80))
    }

    /// A name is a file's name: letters, digits, `.`, `_` and `-`, not starting with `.`, and not
    /// ending as a review image does (`.actual`, `.diff`).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".") && !name.hasSuffix(".actual")
            && !name.hasSuffix(".diff")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}

extension RequestList {
    struct Parser {
        /// A request read so far; its name is settled once the whole list is read.
        struct Pending {
            var request: ReplayRequest
            var givenName: String?
        }

        var pending: [Pending] = []
        /// A `name:` line waiting for its request.
        struct NameLine {
            var name: String
            var line: Int
        }

        var nameLine: NameLine?
        var redactedHeaders: Set<String> = []
        var patterns: [Redactor.Pattern] = []
        /// Whether an indented line may follow: only after a request and its indented lines.
        var isInRequest = false

        mutating func read(_ rawLine: String, number: Int) throws(RequestListError) {
            let split = CommentedLine(rawLine)
            let content = split.content
            let comment = split.comment
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                if comment != nil, Self.givenName(inComment: comment) != nil {
                    throw RequestListError(line: number, message: "'# as: NAME' goes after the request it names")
                }
                return
            }
            if content.first == " " || content.first == "\t" {
                guard isInRequest, !pending.isEmpty else {
                    throw RequestListError(
                        line: number, message: "an indented line must be under a request (a header or 'expect STATUS')")
                }
                try readIndented(trimmed, number: number)
                return
            }
            isInRequest = false
            if let name = Self.directive("name:", in: trimmed) {
                guard nameLine == nil else {
                    throw RequestListError(line: number, message: "two 'name:' lines before one request")
                }
                nameLine = NameLine(name: try Self.checkedName(name, line: number), line: number)
                return
            }
            if let redaction = Self.directive("redact:", in: trimmed) {
                try readRedaction(redaction, number: number)
                return
            }
            try readRequest(trimmed, comment: comment, number: number)
        }

        mutating func readRequest(_ text: String, comment: String?, number: Int) throws(RequestListError) {
            let parts = text.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let kind = ReplayRequest.Kind(rawValue: parts[0]) else {
                let known = ReplayRequest.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw RequestListError(
                    line: number,
                    message: "'\(parts[0])' is not a request: a line starts with \(known), 'name:' or 'redact:'")
            }
            guard parts.count >= 2 else {
                throw RequestListError(
                    line: number, message: "\(kind.rawValue) needs a path, like '\(kind.rawValue) /'")
            }
            let target = parts[1]
            guard target.hasPrefix("/") else {
                throw RequestListError(line: number, message: "the path must start with '/', not '\(target)'")
            }
            guard !target.contains("#") else {
                throw RequestListError(
                    line: number,
                    message:
                        "a path cannot hold '#' (a browser never sends the fragment); a comment needs a space before '#'"
                )
            }
            do {
                _ = try Request(method: kind.method, target: target)
            } catch {
                throw RequestListError(line: number, message: error.description)
            }
            var form: [ReplayRequest.FormField]?
            if kind == .post {
                form = try parts.count == 3 ? Self.formFields(parts[2], line: number) : []
            } else if parts.count == 3 {
                let extra = parts[2]
                let hint =
                    extra.hasPrefix("expect")
                    ? "'expect STATUS' goes on an indented line under the request"
                    : "only POST sends a form; a path with a space must be encoded (%20)"
                throw RequestListError(line: number, message: "unexpected '\(extra)' after the path: \(hint)")
            }
            var givenName = nameLine?.name
            if let asName = Self.givenName(inComment: comment) {
                guard givenName == nil else {
                    throw RequestListError(line: number, message: "this request has a 'name:' line and '# as:' both")
                }
                givenName = try Self.checkedName(asName, line: number)
            }
            nameLine = nil
            pending.append(
                Pending(
                    request: ReplayRequest(
                        line: number, name: "", kind: kind, target: target, form: form, headers: kind.impliedHeaders,
                        expectedStatus: nil),
                    givenName: givenName))
            isInRequest = true
        }

        mutating func readIndented(_ text: String, number: Int) throws(RequestListError) {
            let last = pending.count - 1
            if let status = Self.directive("expect", in: text) {
                guard let code = Int(status), (100...599).contains(code) else {
                    throw RequestListError(
                        line: number, message: "expect takes a status from 100 to 599, not '\(status)'")
                }
                guard pending[last].request.expectedStatus == nil else {
                    throw RequestListError(line: number, message: "this request already expects a status")
                }
                pending[last].request.expectedStatus = code
                return
            }
            guard let colon = text.firstIndex(of: ":") else {
                throw RequestListError(
                    line: number, message: "expected a header ('Name: value') or 'expect STATUS', not '\(text)'")
            }
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard Self.isToken(name) else {
                throw RequestListError(line: number, message: "'\(name)' is not a header name")
            }
            guard value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }) else {
                throw RequestListError(line: number, message: "the value of \(name) holds a control character")
            }
            pending[last].request.headers.append(ReplayRequest.Header(name: name, value: value))
        }

        mutating func readRedaction(_ text: String, number: Int) throws(RequestListError) {
            if text.hasPrefix("/") {
                guard text.count >= 3, text.hasSuffix("/") else {
                    throw RequestListError(
                        line: number, message: "a pattern is written between slashes: redact: /[0-9]+/")
                }
                let source = String(text.dropFirst().dropLast())
                do {
                    patterns.append(Redactor.Pattern(source: source, regex: try Regex(source)))
                } catch {
                    throw RequestListError(line: number, message: "the pattern /\(source)/ does not compile: \(error)")
                }
                return
            }
            guard Self.isToken(text) else {
                throw RequestListError(
                    line: number, message: "redact: takes a header name or a /pattern/, not '\(text)'")
            }
            redactedHeaders.insert(text.lowercased())
        }

        func finish() throws(RequestListError) -> RequestList {
            if let nameLine {
                throw RequestListError(
                    line: nameLine.line, message: "'name: \(nameLine.name)' is followed by no request")
            }
            var taken: [String: Int] = [:]
            for item in pending {
                guard let name = item.givenName else { continue }
                if let other = taken[name] {
                    throw RequestListError(
                        line: item.request.line, message: "the name '\(name)' is already used on line \(other)")
                }
                taken[name] = item.request.line
            }
            // Derived names count up past every name taken, given or derived.
            var requests: [ReplayRequest] = []
            for item in pending {
                var request = item.request
                if let given = item.givenName {
                    request.name = given
                } else {
                    let base = ReplayRequest.derivedName(kind: request.kind, target: request.target)
                    var name = base
                    var counter = 1
                    while taken[name] != nil {
                        counter += 1
                        name = "\(base)-\(counter)"
                    }
                    taken[name] = request.line
                    request.name = name
                }
                requests.append(request)
            }
            return RequestList(requests: requests, redactedHeaders: redactedHeaders, patterns: patterns)
        }

        // MARK: Pieces of a line

        /// `home` from `# as: home`.
        static func givenName(inComment comment: String?) -> String? {
            guard let comment else { return nil }
            return directive("as:", in: comment.trimmingCharacters(in: .whitespaces))
        }

        /// The text after `word` and a space (or right after a word ending in `:`), trimmed.
        static func directive(_ word: String, in text: String) -> String? {
            guard text.hasPrefix(word) else { return nil }
            let rest = text.dropFirst(word.count)
            guard word.hasSuffix(":") || rest.first == " " || rest.first == "\t" else { return nil }
            return rest.trimmingCharacters(in: .whitespaces)
        }

        static func checkedName(_ name: String, line: Int) throws(RequestListError) -> String {
            guard ReplayRequest.isValidName(name) else {
                throw RequestListError(
                    line: line,
                    message: "'\(name)' cannot name a snapshot file: use letters, digits, '.', '_' and '-'")
            }
            return name
        }

        /// An HTTP token (RFC 9110 `tchar`s), as header names are.
        static func isToken(_ text: String) -> Bool {
            !text.isEmpty
                && text.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && (CharacterSet.alphanumerics.contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
                }
        }

        /// `name=value&…`: a value is percent-encoded (`+` is a space, as in any form) or quoted
        /// (`"two words"`, with `\"` and `\\`), and is sent percent-encoded either way.
        static func formFields(_ text: String, line: Int) throws(RequestListError) -> [ReplayRequest.FormField] {
            var fields: [ReplayRequest.FormField] = []
            var characters = Array(text)[...]
            while !characters.isEmpty {
                guard let equals = characters.firstIndex(of: "="),
                    !characters[..<equals].contains(where: { $0 == "&" || $0 == " " })
                else {
                    let piece = String(characters.prefix { $0 != "&" })
                    throw RequestListError(line: line, message: "a form field is name=value, not '\(piece)'")
                }
                let name = String(characters[..<equals])
                guard !name.isEmpty, isFormName(name) else {
                    throw RequestListError(line: line, message: "'\(name)' is not a form field name")
                }
                characters = characters[(equals + 1)...]
                var value: String
                if characters.first == "\"" {
                    characters = characters.dropFirst()
                    var literal = ""
                    var closed = false
                    while let character = characters.first {
                        characters = characters.dropFirst()
                        if character == "\\", let next = characters.first {
                            literal.append(next)
                            characters = characters.dropFirst()
                        } else if character == "\"" {
                            closed = true
                            break
                        } else {
                            literal.append(character)
                        }
                    }
                    guard closed else {
                        throw RequestListError(
                            line: line, message: "the quoted value of '\(name)' has no closing quote")
                    }
                    value = PercentEscapes.encode(literal)
                } else {
                    value = String(characters.prefix { $0 != "&" && $0 != " " && $0 != "\t" })
                    characters = characters.dropFirst(value.count)
                    if characters.first == " " || characters.first == "\t" {
                        throw RequestListError(
                            line: line, message: "a form value with a space must be quoted or encoded")
                    }
                    try checkPercentEncoding(value, field: name, line: line)
                }
                if let next = characters.first {
                    guard next == "&" else {
                        let message =
                            next == " " || next == "\t"
                            ? "a form value with a space must be quoted or encoded"
                            : "expected '&' after the value of '\(name)', not '\(next)'"
                        throw RequestListError(line: line, message: message)
                    }
                    characters = characters.dropFirst()
                }
                fields.append(ReplayRequest.FormField(name: name, encodedValue: value))
            }
            return fields
        }

        static func isFormName(_ name: String) -> Bool {
            name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.[]".contains($0)) }
        }

        static func checkPercentEncoding(_ value: String, field: String, line: Int) throws(RequestListError) {
            let bytes = Array(value.utf8)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, HexDigit.value(bytes[index + 1]) != nil,
                        HexDigit.value(bytes[index + 2]) != nil
                    else {
                        let shown = String(decoding: bytes[index..<min(bytes.count, index + 3)], as: UTF8.self)
                        throw RequestListError(
                            line: line,
                            message: "'\(shown)' in the value of '\(field)' is not percent-encoding: write a '%' as %25"
                        )
                    }
                    index += 3
                    continue
                }
                guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") else {
                    throw RequestListError(
                        line: line,
                        message: "the value of '\(field)' holds a character that must be quoted or percent-encoded")
                }
                index += 1
            }
        }
    }
}

/// A list's line split at its comment: an unquoted `#` after a space (or starting the line).
struct CommentedLine {
    var content: String
    var comment: String?

    init(_ line: String) {
        var inQuotes = false
        var previous: Character = " "
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == "#", !inQuotes, previous == " " || previous == "\t" {
                content = String(line[..<index])
                comment = String(line[line.index(after: index)...])
                return
            }
            previous = character
        }
        content = line
        comment = nil
    }
}
