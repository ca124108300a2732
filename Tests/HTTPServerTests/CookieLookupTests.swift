import HTTPServer
import Testing

/// `cookie(named:)` scans bytes instead of building `cookies`: it must answer what `cookies` does.
@Test(arguments: [
    ["a=1; tabstage_session=abc; b=2"],
    ["tabstage_session=\"quoted\"; tabstage_session=second"],
    ["  tabstage_session \t=  spaced  ;x=y"],
    ["other=1", "tabstage_session=from-the-second-header"],
    ["tabstage_session=first", "tabstage_session=second"],
    ["noequals; =empty-name; tabstage_session="],
    ["tabstage_session=\""],
    ["a=é; tabstage_session=unicode-elsewhere"],
    ["a=b;\u{301}tabstage_session=combining", "tabstage_session=plain"],
    [""], [";;;"], ["="], ["tabstage_session=v;"], [";tabstage_session=v"], ["x=1;;a=2;"],
    ["a=1=2; tabstage_session==v="], ["\ttabstage_session=tab\t"], ["a=\u{1}; tabstage_session=control"],
    [],
])
func cookieLookupAgreesWithTheDictionary(headers: [String]) throws {
    let request = try Request(method: .get, target: "/", headers: HTTPHeaders(headers.map { ("Cookie", $0) }))
    for name in ["tabstage_session", "a", "x", "missing"] {
        #expect(request.cookie(named: name).map(String.init) == request.cookies[name])
    }
}
