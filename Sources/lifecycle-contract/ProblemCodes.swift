import LifecycleWire

/// `Problem.code`'s list: every `ProblemCode`, in its order.
enum ProblemCodes {
    static var section: SpecSection {
        SpecSection(
            name: "problem-codes",
            lines: [String(repeating: " ", count: 14) + "enum: " + YAML.list(ProblemCode.allCases.map(\.rawValue))])
    }
}
