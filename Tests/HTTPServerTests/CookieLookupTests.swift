import HTTPServer
import Testing

/// `cookie(named:)` reads the `Cookie` headers by the rules `cookies` states.
@Test(
    arguments: [
        (["a=1; tabstage_session=abc; b=2"], "abc"),
        (["tabstage_session=\"quoted\"; tabstage_session=second"], "quoted"),
        (["  tabstage_session \t=  spaced  ;x=y"], "spaced"),
        (["other=1", "tabstage_session=from-the-second-header"], "from-the-second-header"),
        (["tabstage_session=first", "tabstage_session=second"], "first"),
        (["noequals; =empty-name; tabstage_session="], ""),
        (["tabstage_session=\""], "\""),
        (["a=é; tabstage_session=unicode-elsewhere"], "unicode-elsewhere"),
        (["a=1=2; tabstage_session==v="], "=v="),
        (["\ttabstage_session=tab\t"], "tab"),
        ([";;;", "x=1;;a=2;"], nil),
        ([], nil),
    ] as [([String], String?)])
func theSessionCookieIsTheFirstPairOfItsName(headers: [String], expected: String?) throws {
    let request = try Request(method: .get, target: "/", headers: HTTPHeaders(headers.map { ("Cookie", $0) }))
    #expect(request.cookie(named: "tabstage_session").map(String.init) == expected)
    #expect(request.cookies["tabstage_session"] == expected)
}
