/// A single-pass parser for the SVG path grammar, over UTF-8 bytes so errors can name byte offsets.
struct PathParser {
    private let bytes: [UInt8]
    private var position = 0
    private var elements: [PathElement] = []
    private var current = Point(x: 0, y: 0)
    private var subpathStart = Point(x: 0, y: 0)
    /// The control point a following S or T reflects, when the previous command allows it.
    private var lastCubicControl: Point?
    private var lastQuadControl: Point?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parse() throws(PathSyntaxError) -> [PathElement] {
        if bytes.count > PathData.maximumLength {
            throw PathSyntaxError(offset: PathData.maximumLength, reason: .tooLong(limit: PathData.maximumLength))
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "m") else {
            throw PathSyntaxError(offset: position, reason: .expectedMoveTo)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            let letter = bytes[position]
            guard Self.isCommand(letter) else {
                throw PathSyntaxError(
                    offset: position, reason: .expectedCommand(found: Self.character(at: position, in: bytes)))
            }
            position += 1
            try parseArguments(of: letter)
        }
        return elements
    }

    private mutating func parseArguments(of letter: UInt8) throws(PathSyntaxError) {
        let relative = letter >= UInt8(ascii: "a")
        var command = letter & ~0x20
        if command == UInt8(ascii: "Z") {
            try append(.close)
            current = subpathStart
            lastCubicControl = nil
            lastQuadControl = nil
            return
        }
        while true {
            try parseOne(command, relative: relative)
            // A moveto followed by more pairs means implicit linetos (SVG 1.1, 8.3.2).
            if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
            let commaOffset = position
            let sawComma = skipCommaWhitespace()
            if !startsNumber() {
                if sawComma { throw PathSyntaxError(offset: commaOffset, reason: .expectedNumber) }
                return
            }
        }
    }

    private mutating func parseOne(_ command: UInt8, relative: Bool) throws(PathSyntaxError) {
        let origin = relative ? current : Point(x: 0, y: 0)
        switch command {
        case UInt8(ascii: "M"):
            let point = try readPoint() + origin
            try append(.move(to: point))
            subpathStart = point
            current = point
            lastCubicControl = nil
            lastQuadControl = nil
        case UInt8(ascii: "L"):
            try lineTo(try readPoint() + origin)
        case UInt8(ascii: "H"):
            let x = try readNumber()
            try lineTo(Point(x: relative ? current.x + x : x, y: current.y))
        case UInt8(ascii: "V"):
            let y = try readNumber()
            try lineTo(Point(x: current.x, y: relative ? current.y + y : y))
        case UInt8(ascii: "C"):
            let control1 = try readPoint() + origin
            let control2 = try readSeparatedPoint() + origin
            let end = try readSeparatedPoint() + origin
            try cubicTo(control1, control2, end)
        case UInt8(ascii: "S"):
            let control2 = try readPoint() + origin
            let end = try readSeparatedPoint() + origin
            let control1 = lastCubicControl.map { current * 2 - $0 } ?? current
            try cubicTo(control1, control2, end)
        case UInt8(ascii: "Q"):
            let control = try readPoint() + origin
            let end = try readSeparatedPoint() + origin
            try quadTo(control, end)
        case UInt8(ascii: "T"):
            let end = try readPoint() + origin
            let control = lastQuadControl.map { current * 2 - $0 } ?? current
            try quadTo(control, end)
        default:  // "A": the only command letter left
            let radiusX = try readNumber()
            skipCommaWhitespace()
            let radiusY = try readNumber()
            skipCommaWhitespace()
            let rotation = try readNumber()
            skipCommaWhitespace()
            let largeArc = try readFlag()
            skipCommaWhitespace()
            let sweep = try readFlag()
            let end = try readSeparatedPoint() + origin
            let arc = EllipticalArc(
                from: current, to: end, radiusX: radiusX, radiusY: radiusY, rotationDegrees: rotation,
                largeArc: largeArc, sweep: sweep)
            for element in arc.elements() { try append(element) }
            current = end
            lastCubicControl = nil
            lastQuadControl = nil
        }
    }

    private mutating func lineTo(_ point: Point) throws(PathSyntaxError) {
        try append(.line(to: point))
        current = point
        lastCubicControl = nil
        lastQuadControl = nil
    }

    private mutating func cubicTo(_ control1: Point, _ control2: Point, _ end: Point) throws(PathSyntaxError) {
        try append(.cubic(control1: control1, control2: control2, to: end))
        current = end
        lastCubicControl = control2
        lastQuadControl = nil
    }

    private mutating func quadTo(_ control: Point, _ end: Point) throws(PathSyntaxError) {
        try append(.quad(control: control, to: end))
        current = end
        lastQuadControl = control
        lastCubicControl = nil
    }

    private mutating func append(_ element: PathElement) throws(PathSyntaxError) {
        guard elements.count < PathData.maximumElements else {
            throw PathSyntaxError(offset: position, reason: .tooManyElements(limit: PathData.maximumElements))
        }
        elements.append(element)
    }

    // MARK: - Lexing

    private mutating func readPoint() throws(PathSyntaxError) -> Point {
        let x = try readNumber()
        skipCommaWhitespace()
        let y = try readNumber()
        return Point(x: x, y: y)
    }

    private mutating func readSeparatedPoint() throws(PathSyntaxError) -> Point {
        skipCommaWhitespace()
        return try readPoint()
    }

    /// Reads `sign? (digits ('.' digits?)? | '.' digits) exponent?`; as SVG allows, a number ends where
    /// the next cannot continue it, so `-.5.5` is two numbers and `1-2` too.
    private mutating func readNumber() throws(PathSyntaxError) -> Double {
        skipWhitespace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            position += 1
        }
        let integerDigits = skipDigits()
        var fractionDigits = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            fractionDigits = skipDigits()
        }
        guard integerDigits + fractionDigits > 0 else {
            position = start
            throw PathSyntaxError(offset: start, reason: .expectedNumber)
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            var look = position + 1
            if look < bytes.count, bytes[look] == UInt8(ascii: "+") || bytes[look] == UInt8(ascii: "-") { look += 1 }
            guard look < bytes.count, Self.isDigit(bytes[look]) else {
                throw PathSyntaxError(offset: look, reason: .expectedNumber)
            }
            position = look
            _ = skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite, abs(value) <= PathData.maximumMagnitude else {
            throw PathSyntaxError(offset: start, reason: .numberOutOfRange)
        }
        return value
    }

    private mutating func readFlag() throws(PathSyntaxError) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "0") || bytes[position] == UInt8(ascii: "1")
        else {
            throw PathSyntaxError(offset: position, reason: .expectedFlag)
        }
        position += 1
        return bytes[position - 1] == UInt8(ascii: "1")
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        return position - start
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    /// Skips `wsp* ','? wsp*`; tells whether there was a comma.
    @discardableResult
    private mutating func skipCommaWhitespace() -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return false }
        position += 1
        skipWhitespace()
        return true
    }

    private func startsNumber() -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        return Self.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isCommand(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"),
            UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    /// The character starting at a byte offset, for messages (a replacement character inside UTF-8).
    private static func character(at offset: Int, in bytes: [UInt8]) -> Character {
        let end = min(bytes.count, offset + 4)
        return String(decoding: bytes[offset..<end], as: UTF8.self).first ?? "\u{FFFD}"
    }
}
