import Synchronization

/// A repeatable id sequence (SplitMix64) for deterministic mode; never for real visitors.
public final class SeededSessionIDs: SessionIDSource {
    private let state: Mutex<UInt64>

    public init(seed: UInt64) {
        state = Mutex(seed)
    }

    public func next() -> SessionID {
        state.withLock { state in
            SessionID(high: Self.step(&state), low: Self.step(&state))
        }
    }

    private static func step(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
