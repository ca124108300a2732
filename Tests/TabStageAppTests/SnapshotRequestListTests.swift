import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct SnapshotRequestListTests {
    func names(_ text: String) throws -> [String] {
        try RequestList(parsing: text).requests.map(\.name)
    }

    @Test func namesComeFromTheMethodAndPathWithACounterForRepeats() throws {
        #expect(
            try names(
                """
                GET /coffee/bottom/stamps
                POST /coffee/bottom/stamps/action action=increment
                GET /coffee/bottom/stamps
                TAP /coffee/bottom/stamps
                FRAGMENT /coffee/bottom/menu?q=Latte
                GET /
                GET /coffee/bottom/stamps
                """) == [
                    "get-coffee-bottom-stamps", "post-coffee-bottom-stamps-action", "get-coffee-bottom-stamps-2",
                    "tap-coffee-bottom-stamps", "fragment-coffee-bottom-menu-q-latte", "get",
                    "get-coffee-bottom-stamps-3",
                ])
    }

    @Test func givenNamesWinAndDerivedNamesCountPastThem() throws {
        #expect(
            try names(
                """
                GET /a   # as: get-a
                name: home
                GET /b
                GET /a
                GET /b   # a comment that names nothing
                """) == ["get-a", "home", "get-a-2", "get-b"])
    }

    @Test func editingTheListAroundARequestKeepsItsName() throws {
        let list = "GET /a\nPOST /a/action action=reset\nGET /a\n"
        let edited =
            "# the visit\n\nGET /a\n  Accept-Language: zh-TW\n\n# then a reset\nPOST /a/action action=reset\nGET /a\n"
        #expect(try names(list) == names(edited))
    }

    @Test func headersStatusesAndShortFormsBelongToTheirRequest() throws {
        let list = try RequestList(
            parsing: """
                redact: X-Request-Id
                redact: /order-[0-9]+/
                TAP /coffee/bottom/stamps
                  Accept-Language: zh-TW
                  expect 200
                FRAGMENT /coffee/bottom/menu
                POST /login name="Ada Lovelace"&next=%2Fcoffee
                \texpect 303
                """)
        #expect(list.redactedHeaders == ["x-request-id"])
        #expect(list.patterns.map(\.source) == ["order-[0-9]+"])
        let tap = list.requests[0]
        #expect(tap.kind.method == .get)
        #expect(
            tap.headers == [
                .init(name: "X-TabStage-Source", value: "tap"), .init(name: "Accept-Language", value: "zh-TW"),
            ])
        #expect(tap.expectedStatus == 200)
        #expect(list.requests[1].headers == [.init(name: "X-TabStage-Fragment", value: "1")])
        #expect(list.requests[1].form == nil)
        let login = list.requests[2]
        #expect(
            login.form == [
                .init(name: "name", encodedValue: "Ada%20Lovelace"), .init(name: "next", encodedValue: "%2Fcoffee"),
            ])
        #expect(login.expectedStatus == 303)
        #expect(login.summary == "POST /login name=Ada%20Lovelace&next=%2Fcoffee")
    }

    @Test func quotedValuesMayHoldQuotesAmpersandsAndHashes() throws {
        let request = try #require(
            RequestList(parsing: #"POST /a/b/c/action action=nickname&nickname="say \"hi\" & #1"  # as: nick"#).requests
                .first)
        #expect(request.name == "nick")
        #expect(
            request.form == [
                .init(name: "action", encodedValue: "nickname"),
                .init(name: "nickname", encodedValue: "say%20%22hi%22%20%26%20%231"),
            ])
    }

    @Test(arguments: [
        ("GET /a\nPOST /a/action q=two words\n", "2: a form value with a space must be quoted or encoded"),
        ("POST /a q=\"open\n", "1: the quoted value of 'q' has no closing quote"),
        ("POST /a q=50%\n", "1: '%' in the value of 'q' is not percent-encoding: write a '%' as %25"),
        ("POST /a q=%zz\n", "1: '%zz' in the value of 'q' is not percent-encoding: write a '%' as %25"),
        ("POST /a justaword\n", "1: a form field is name=value, not 'justaword'"),
        (
            "DELETE /a\n",
            "1: 'DELETE' is not a request: a line starts with GET, POST, TAP, FRAGMENT, 'name:' or 'redact:'"
        ),
        ("GET\n", "1: GET needs a path, like 'GET /'"),
        ("GET coffee\n", "1: the path must start with '/', not 'coffee'"),
        (
            "GET /a#top\n",
            "1: a path cannot hold '#' (a browser never sends the fragment); a comment needs a space before '#'"
        ),
        (
            "GET /a expect 303\n",
            "1: unexpected 'expect 303' after the path: 'expect STATUS' goes on an indented line under the request"
        ),
        ("  Accept: x\n", "1: an indented line must be under a request (a header or 'expect STATUS')"),
        ("GET /a\n  expect 42\n", "2: expect takes a status from 100 to 599, not '42'"),
        ("GET /a\n  just words\n", "2: expected a header ('Name: value') or 'expect STATUS', not 'just words'"),
        ("GET /a\n  Bad Header: 1\n", "2: 'Bad Header' is not a header name"),
        ("GET /a # as: x\n\nGET /b # as: x\n", "3: the name 'x' is already used on line 1"),
        ("GET /a # as: ../x\n", "1: '../x' cannot name a snapshot file: use letters, digits, '.', '_' and '-'"),
        ("name: a\nGET /a # as: b\n", "2: this request has a 'name:' line and '# as:' both"),
        ("GET /a\nname: dangling\n", "2: 'name: dangling' is followed by no request"),
        ("redact: /(/\n", "1: the pattern /(/ does not compile"),
        ("redact: a header\n", "1: redact: takes a header name or a /pattern/, not 'a header'"),
    ])
    func aMistakeIsReportedAtItsLine(list: String, message: String) {
        do {
            _ = try RequestList(parsing: list)
            Issue.record("no error for \(list)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }
}
