import Sessions
import Synchronization
import Testing

struct ChangeHubTests {
    @Test func aLocalHubDeliversEachNoticeToEverySubscriberUntilUnsubscribed() {
        let hub = LocalChangeHub()
        let first = Mutex<[ChangeNotice]>([])
        let second = Mutex<[ChangeNotice]>([])
        let firstSubscription = hub.subscribe { notice in first.withLock { $0.append(notice) } }
        _ = hub.subscribe { notice in second.withLock { $0.append(notice) } }

        hub.publish(ChangeNotice(topic: "session:a", version: 1))
        hub.unsubscribe(firstSubscription)
        hub.publish(ChangeNotice(topic: "session:a", version: 2))

        #expect(first.withLock { $0 } == [ChangeNotice(topic: "session:a", version: 1)])
        #expect(
            second.withLock { $0 } == [
                ChangeNotice(topic: "session:a", version: 1), ChangeNotice(topic: "session:a", version: 2),
            ])
    }
}
