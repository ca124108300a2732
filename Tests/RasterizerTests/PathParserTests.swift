import Testing

@testable import PathGeometry

private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

private func parse(_ text: String) throws -> [PathElement] { try PathData(parsing: text).elements }

private func syntaxError(_ text: String) -> PathSyntaxError? {
    do {
        _ = try PathData(parsing: text)
        return nil
    } catch {
        return error
    }
}

struct PathParserTests {
    @Test func absoluteCommands() throws {
        #expect(
            try parse("M1 2 L3 4 H5 V6 C7 8 9 10 11 12 Q13 14 15 16 Z") == [
                .move(to: p(1, 2)), .line(to: p(3, 4)), .line(to: p(5, 4)), .line(to: p(5, 6)),
                .cubic(control1: p(7, 8), control2: p(9, 10), to: p(11, 12)), .quad(control: p(13, 14), to: p(15, 16)),
                .close,
            ])
    }

    @Test func relativeCommandsAddTheCurrentPoint() throws {
        #expect(
            try parse("m1 2 l3 4 h5 v6 c1 1 2 2 3 3 q1 0 2 2 z") == [
                .move(to: p(1, 2)), .line(to: p(4, 6)), .line(to: p(9, 6)), .line(to: p(9, 12)),
                .cubic(control1: p(10, 13), control2: p(11, 14), to: p(12, 15)),
                .quad(control: p(13, 15), to: p(14, 17)),
                .close,
            ])
    }

    @Test func afterClosePathRelativeCommandsStartFromTheSubpathStart() throws {
        #expect(
            try parse("M10 10 L20 10 Z l1 1") == [
                .move(to: p(10, 10)), .line(to: p(20, 10)), .close, .line(to: p(11, 11)),
            ])
    }

    @Test func implicitRepeatsAndMovetoPairsBecomeLinetos() throws {
        #expect(
            try parse("M0 0 1 1 2 2") == [.move(to: p(0, 0)), .line(to: p(1, 1)), .line(to: p(2, 2))])
        #expect(
            try parse("m1 1 1 1 l1 0 0 1") == [
                .move(to: p(1, 1)), .line(to: p(2, 2)), .line(to: p(3, 2)), .line(to: p(3, 3)),
            ])
        #expect(
            try parse("M0 0 H1 2 3") == [
                .move(to: p(0, 0)), .line(to: p(1, 0)), .line(to: p(2, 0)), .line(to: p(3, 0)),
            ])
    }

    @Test func smoothCurvesReflectThePreviousControlPoint() throws {
        #expect(
            try parse("M0 0 C1 2 3 2 4 0 S7 -2 8 0") == [
                .move(to: p(0, 0)), .cubic(control1: p(1, 2), control2: p(3, 2), to: p(4, 0)),
                .cubic(control1: p(5, -2), control2: p(7, -2), to: p(8, 0)),
            ])
        // Without a preceding cubic, the first control point is the current point.
        #expect(
            try parse("M1 1 S2 2 3 3") == [
                .move(to: p(1, 1)), .cubic(control1: p(1, 1), control2: p(2, 2), to: p(3, 3)),
            ])
        #expect(
            try parse("M0 0 Q1 1 2 0 T4 0 t2 0") == [
                .move(to: p(0, 0)), .quad(control: p(1, 1), to: p(2, 0)), .quad(control: p(3, -1), to: p(4, 0)),
                .quad(control: p(5, 1), to: p(6, 0)),
            ])
        #expect(
            try parse("M0 0 L1 1 T2 2") == [
                .move(to: p(0, 0)), .line(to: p(1, 1)), .quad(control: p(1, 1), to: p(2, 2)),
            ])
    }

    @Test func numbersAsSVGWritesThem() throws {
        #expect(try parse("M-.5.5") == [.move(to: p(-0.5, 0.5))])
        #expect(try parse("M1e-3 2E+1") == [.move(to: p(0.001, 20))])
        #expect(try parse("M1-2") == [.move(to: p(1, -2))])
        #expect(try parse("M+3,4.") == [.move(to: p(3, 4))])
        #expect(try parse("M0,0L.5.5.5.5") == [.move(to: p(0, 0)), .line(to: p(0.5, 0.5)), .line(to: p(0.5, 0.5))])
        #expect(try parse(" \t\nM 1 , 2 \r\n") == [.move(to: p(1, 2))])
    }

    @Test func arcFlagsNeedNoSeparators() throws {
        let compact = try parse("M4 2a2 2 0 01-2 2")
        let spaced = try parse("M4 2 a 2 2 0 0 1 -2 2")
        #expect(compact == spaced)
        #expect(compact.count == 2)
        guard case .cubic(_, _, let end) = compact[1] else {
            Issue.record("a quarter arc should be one cubic, got \(compact)")
            return
        }
        #expect(end == p(2, 4))
    }

    @Test func aQuarterArcStaysOnItsCircle() throws {
        // From (10, 0) to (0, 10) around the origin: the cubic's midpoint lies on the circle.
        let elements = try parse("M10 0 A10 10 0 0 1 0 10")
        guard case .cubic(let c1, let c2, let end) = elements[1] else {
            Issue.record("expected a cubic, got \(elements)")
            return
        }
        let midX = (10 + 3 * c1.x + 3 * c2.x + end.x) / 8
        let midY = (0 + 3 * c1.y + 3 * c2.y + end.y) / 8
        #expect(abs((midX * midX + midY * midY).squareRoot() - 10) < 0.01)
        #expect(midX > 0 && midY > 0)  // sweep 1 goes through the positive quadrant
        let otherWay = try parse("M10 0 A10 10 0 1 0 0 10")
        #expect(otherWay.count == 4)  // the large arc: 270° in quarter pieces
    }

    @Test func arcsTooSmallForTheirEndpointsAreScaledUp() throws {
        let elements = try parse("M0 0 A1 1 0 0 1 10 0")
        #expect(elements.count == 3)  // a half circle of radius 5, in two pieces
        guard case .cubic(_, _, let middle) = elements[1] else {
            Issue.record("expected cubics, got \(elements)")
            return
        }
        #expect(abs(middle.x - 5) < 1e-9 && abs(abs(middle.y) - 5) < 1e-9)
    }

    /// Found by `make fuzz` (path-data): radii whose squares underflow made the scale infinite
    /// and the piece count NaN, which trapped.
    @Test func radiiTooSmallToSquareAreScaledUpAllTheSame() throws {
        let elements = try parse("M0 0 A1e-200 1e-200 0 0 1 10 0")
        #expect(elements.count == 3)
        guard case .cubic(_, _, let middle) = elements[1] else {
            Issue.record("expected cubics, got \(elements)")
            return
        }
        #expect(abs(middle.x - 5) < 1e-9 && abs(abs(middle.y) - 5) < 1e-9)
        // The fuzzer's inputs: the arc is drawn, and the unfinished one after it refused.
        #expect(syntaxError("M17  100A515e-203, 088 0 1 1 5.4 8h10 01V0a13,")?.offset == 46)
        // A radius below Double's normal range beside an ordinary one: their ratio overflows.
        #expect(syntaxError("M17  100A515e-320 ,088 0 1 1 5.4 8h10 01V0a13,")?.offset == 46)
        #expect(try parse("M0 0 A1e-320 88 0 1 1 5 8").last == .line(to: p(5, 8)))
    }

    @Test func degenerateArcs() throws {
        #expect(try parse("M1 1 A0 5 0 0 1 3 3") == [.move(to: p(1, 1)), .line(to: p(3, 3))])
        #expect(try parse("M1 1 A5 0 0 0 1 3 3") == [.move(to: p(1, 1)), .line(to: p(3, 3))])
        #expect(try parse("M1 1 A5 5 0 0 1 1 1") == [.move(to: p(1, 1))])
        #expect(try parse("M1 1 a5 5 0 0 1 0 0 L2 2") == [.move(to: p(1, 1)), .line(to: p(2, 2))])
    }

    @Test func malformedInputNamesTheOffsetAndWhatWasExpected() {
        #expect(syntaxError("") == PathSyntaxError(offset: 0, reason: .expectedMoveTo))
        #expect(syntaxError("  L1 2") == PathSyntaxError(offset: 2, reason: .expectedMoveTo))
        #expect(syntaxError("M1 2 X3") == PathSyntaxError(offset: 5, reason: .expectedCommand(found: "X")))
        #expect(syntaxError("M1") == PathSyntaxError(offset: 2, reason: .expectedNumber))
        #expect(syntaxError("M1 2 L3,") == PathSyntaxError(offset: 8, reason: .expectedNumber))
        #expect(syntaxError("M1 2 L3 4,") == PathSyntaxError(offset: 9, reason: .expectedNumber))
        #expect(syntaxError("M1 2 C1 2 3") == PathSyntaxError(offset: 11, reason: .expectedNumber))
        #expect(syntaxError("M1 2 L.") == PathSyntaxError(offset: 6, reason: .expectedNumber))
        #expect(syntaxError("M1e 2") == PathSyntaxError(offset: 3, reason: .expectedNumber))
        #expect(syntaxError("M0 0 a2 2 0 21 2 2") == PathSyntaxError(offset: 12, reason: .expectedFlag))
        #expect(syntaxError("M1e999 0") == PathSyntaxError(offset: 1, reason: .numberOutOfRange))
        #expect(syntaxError("M0 0 Z 5") == PathSyntaxError(offset: 7, reason: .expectedCommand(found: "5")))
        #expect(syntaxError("M0 0 L1 1 é") == PathSyntaxError(offset: 10, reason: .expectedCommand(found: "é")))
        let message = syntaxError("M1 2 L3,")?.description ?? ""
        #expect(message == "bad path data at byte 8: expected a number")
    }

    /// Issue 36: what a designer reads names the command and the numbers before the stop, not a
    /// byte offset.
    @Test func syntaxErrorsAreExplainedByTheCommandBeforeThem() {
        func explained(_ source: String) -> String? { syntaxError(source)?.explained(in: source) }
        #expect(explained("M1 2 L3,") == "after 'L 3', expected a number")
        #expect(
            explained("M0 0 L 4 5 L4,5 x")
                == "after 'L 4 5', expected a command letter (M L H V C S Q T A Z), found 'x'")
        #expect(explained("L1 2") == "at the start, expected a moveto command (M or m) to start the path")
        #expect(explained("M1e 2") == "after 'M 1e', expected a number")
        #expect(explained("M0 0 a2 2 0 21 2 2") == "after 'a 2 2 0', expected an arc flag (0 or 1)")
        #expect(
            explained("M0 0 C1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17,")
                == "after '…10 11 12 13 14 15 16 17', expected a number")
    }

    @Test func enormousInputIsRefusedQuickly() {
        let long = "M0 0" + String(repeating: " L1 1", count: PathData.maximumLength / 5 + 1)
        #expect(
            syntaxError(long)
                == PathSyntaxError(offset: PathData.maximumLength, reason: .tooLong(limit: PathData.maximumLength)))
        let many = "M0 0" + String(repeating: "h1", count: PathData.maximumElements)
        #expect(syntaxError(many)?.reason == .tooManyElements(limit: PathData.maximumElements))
    }
}
