import LifecycleCore
import LifecycleJSON

/// A termination's facts on the wire, the same in a timeline entry and in an app's `termination`: its code,
/// signal, category and jetsam reason from its reason (`TerminationReason.kind`), and whether it was in front
/// (absent when the entry was saved before that was kept). An absent code, signal or jetsam reason is left out.
enum TerminationFields {
    static func write(_ reason: TerminationReason, foreground: Bool?, into w: inout JSONWriter) {
        let kind = reason.kind
        if let code = kind.code {
            w.field("code")
            w.string(code)
        }
        if let signal = kind.signal {
            w.field("signal")
            w.string(signal.rawValue)
        }
        w.field("category")
        w.string(kind.category.rawValue)
        if let foreground {
            w.field("foreground")
            w.bool(foreground)
        }
        if let jetsamReason = kind.jetsamReason {
            w.field("jetsamReason")
            w.string(jetsamReason.rawValue)
        }
    }
}
