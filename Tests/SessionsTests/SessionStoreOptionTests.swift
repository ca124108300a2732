import Testing

@testable import Sessions

@Test func sessionStoreOptionsParse() throws {
    #expect(try SessionStoreOption.parse("memory") == .memory)
    #expect(try SessionStoreOption.parse("sqlite") == .sqlite(path: "data/sessions.sqlite"))
    #expect(try SessionStoreOption.parse("sqlite:/var/lib/tabstage/s.db") == .sqlite(path: "/var/lib/tabstage/s.db"))
    #expect(try SessionStoreOption.parse("sqlite:relative dir/a:b.db") == .sqlite(path: "relative dir/a:b.db"))
}

@Test(arguments: ["", "Memory", "sqlite:", "sqlite3:x.db", "file:x"])
func badSessionStoreOptionsAreRefusedWithTheExpectedForms(_ value: String) {
    #expect(throws: SessionStoreOptionError(value: value)) { try SessionStoreOption.parse(value) }
    #expect(SessionStoreOptionError(value: value).description.contains("sqlite:PATH"))
}
