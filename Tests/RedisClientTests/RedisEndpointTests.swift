import RedisClient
import Testing

@Test func aRedisEndpointIsShownWithoutItsPassword() throws {
    let endpoint = try RedisEndpoint.parse("redis://:hunter2@db:6390/4")
    #expect(endpoint.description == "redis://db:6390/4")
    #expect(try RedisEndpoint.parse("redis+unix:///tmp/r.sock?db=1").description == "redis+unix:///tmp/r.sock?db=1")
    #expect(RedisEndpoint.redacted("redis://user:hunter2@db:x/y") == "redis://db:x/y")
}
