import Foundation
/// Lays HTML out for review: one element a line, indented two spaces a level, so that a change
/// touches a short line instead of a long run of markup.
///
/// The rules: an element holding only text (or nothing) stays on one line with its text, as
/// sent; an element holding other elements has its start tag, each child and its end tag on
/// lines of their own; a run of text beside elements is a line of its own, trimmed. Tags are
/// written exactly as sent (attributes in their source order, entities as they were), so the
/// layout only adds line breaks and indentation and drops whitespace between elements.
/// Comments, the doctype and the contents of `script`, `style` and `textarea` are kept whole.
import TabStageApp

enum HTMLLayout {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
    /// Elements whose content is text, never markup, to their end tag.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]

    static func laidOut(_ html: String) -> String {
        var parser = Parser(html)
        let tree = parser.parse()
        var lines: [String] = []
        tree.write(depth: -1, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A parsed node: an element with its children, or a piece written as is.
    struct Node {
        enum Kind {
            case element(name: String, startTag: String, endTag: String?)
            case text(String)
            /// A comment, the doctype or a stray end tag.
            case verbatim(String)
        }
        var kind: Kind
        var children: [Node] = []

        /// The root holds the document's top-level nodes and writes none of its own.
        static var root: Node { Node(kind: .element(name: "", startTag: "", endTag: nil)) }

        func write(depth: Int, into lines: inout [String]) {
            let indent = String(repeating: "  ", count: max(0, depth))
            switch kind {
            case .text(let text):
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { lines.append(indent + trimmed) }
            case .verbatim(let text):
                lines.append(indent + text)
            case .element(_, let startTag, let endTag):
                let isRoot = depth < 0
                let holdsElements = children.contains { if case .text = $0.kind { false } else { true } }
                if !isRoot && !holdsElements {
                    let text = children.map { if case .text(let text) = $0.kind { text } else { "" } }.joined()
                    lines.append(indent + startTag + text + (endTag ?? ""))
                    return
                }
                if !isRoot { lines.append(indent + startTag) }
                for child in children { child.write(depth: depth + 1, into: &lines) }
                if !isRoot, let endTag { lines.append(indent + endTag) }
            }
        }
    }

    /// A forgiving tokenizer and tree builder: an end tag closes the nearest open element of its
    /// name (and any left open inside it); an end tag with no open element is kept as it is.
    struct Parser {
        let characters: [Character]
        var position = 0

        init(_ html: String) {
            characters = Array(html)
        }

        mutating func parse() -> Node {
            var stack: [Node] = [.root]
            var text = ""
            func flushText() {
                if !text.isEmpty { stack[stack.count - 1].children.append(Node(kind: .text(text))) }
                text = ""
            }
            func closeTop() {
                let closed = stack.removeLast()
                stack[stack.count - 1].children.append(closed)
            }
            while position < characters.count {
                let character = characters[position]
                guard character == "<", let tag = readTag() else {
                    text.append(character)
                    position += 1
                    continue
                }
                flushText()
                switch tag {
                case .verbatim(let piece):
                    stack[stack.count - 1].children.append(Node(kind: .verbatim(piece)))
                case .start(let name, let source, let selfClosing):
                    if Self.isVoid(name) || selfClosing {
                        stack[stack.count - 1].children.append(
                            Node(kind: .element(name: name, startTag: source, endTag: nil)))
                    } else if rawTextElements.contains(name) {
                        let raw = readRawText(until: name)
                        var node = Node(kind: .element(name: name, startTag: source, endTag: raw.endTag))
                        if !raw.text.isEmpty { node.children.append(Node(kind: .text(raw.text))) }
                        stack[stack.count - 1].children.append(node)
                    } else {
                        stack.append(Node(kind: .element(name: name, startTag: source, endTag: nil)))
                    }
                case .end(let name, let source):
                    guard let match = stack.lastIndex(where: { $0.name == name }), match > 0 else {
                        stack[stack.count - 1].children.append(Node(kind: .verbatim(source)))
                        continue
                    }
                    while stack.count - 1 > match { closeTop() }
                    stack[stack.count - 1].kind = .element(
                        name: name, startTag: stack[stack.count - 1].startTag, endTag: source)
                    closeTop()
                }
            }
            flushText()
            while stack.count > 1 { closeTop() }
            return stack[0]
        }

        static func isVoid(_ name: String) -> Bool { voidElements.contains(name) }

        enum Tag {
            case start(name: String, source: String, selfClosing: Bool)
            case end(name: String, source: String)
            case verbatim(String)
        }

        /// The tag at `position` (a `<`), moving past it; nil when the `<` starts no tag.
        mutating func readTag() -> Tag? {
            let start = position
            if matches("<!--") {
                let end = find("-->", from: start + 4).map { $0 + 3 } ?? characters.count
                position = end
                return .verbatim(String(characters[start..<end]))
            }
            guard start + 1 < characters.count else { return nil }
            let next = characters[start + 1]
            let isEnd = next == "/"
            guard
                next.isLetter || next == "!"
                    || (isEnd && start + 2 < characters.count && characters[start + 2].isLetter)
            else { return nil }
            // A quoted attribute value may hold `>`.
            var index = start + 1
            var quote: Character?
            while index < characters.count {
                let character = characters[index]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == ">" {
                    break
                }
                index += 1
            }
            guard index < characters.count else { return nil }
            position = index + 1
            let source = String(characters[start...index])
            if next == "!" { return .verbatim(source) }
            let nameStart = isEnd ? start + 2 : start + 1
            var nameEnd = nameStart
            while nameEnd < index,
                characters[nameEnd].isLetter || characters[nameEnd].isNumber || characters[nameEnd] == "-"
            {
                nameEnd += 1
            }
            let name = String(characters[nameStart..<nameEnd]).lowercased()
            if isEnd { return .end(name: name, source: source) }
            return .start(name: name, source: source, selfClosing: characters[index - 1] == "/")
        }

        /// The content of a `script`, `style`, `textarea` or `title` element.
        struct RawText {
            var text: String
            /// nil when the document ends first.
            var endTag: String?
        }

        /// The text up to `</name>`, and that end tag.
        mutating func readRawText(until name: String) -> RawText {
            let start = position
            var index = position
            while index < characters.count {
                if characters[index] == "<", index + 1 < characters.count, characters[index + 1] == "/" {
                    let candidate = String(characters[(index + 2)..<min(characters.count, index + 2 + name.count)])
                    if candidate.lowercased() == name, let close = find(">", from: index) {
                        position = close + 1
                        return RawText(
                            text: String(characters[start..<index]), endTag: String(characters[index...close]))
                    }
                }
                index += 1
            }
            position = characters.count
            return RawText(text: String(characters[start...]), endTag: nil)
        }

        func matches(_ literal: String) -> Bool {
            var index = position
            for character in literal {
                guard index < characters.count, characters[index] == character else { return false }
                index += 1
            }
            return true
        }

        func find(_ literal: String, from start: Int) -> Int? {
            let wanted = Array(literal)
            guard characters.count >= wanted.count, start <= characters.count - wanted.count else { return nil }
            for index in start...(characters.count - wanted.count)
            where characters[index..<index + wanted.count].elementsEqual(wanted) {
                return index
            }
            return nil
        }
    }
}

extension HTMLLayout.Node {
    var name: String {
        if case .element(let name, _, _) = kind { return name }
        return ""
    }

    var startTag: String {
        if case .element(_, let startTag, _) = kind { return startTag }
        return ""
    }
}
