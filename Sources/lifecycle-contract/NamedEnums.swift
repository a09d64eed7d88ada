import LifecycleCore

/// The spec's named enums that events' fields refer to, with the values the core takes. A choice field whose
/// options are one of these refers to it (`$ref`) rather than listing them again.
enum NamedEnums {
    static let all: [(name: String, values: [String])] = [
        ("AppState", AppState.allCases.map(\.rawValue)),
        ("InterruptionKind", InterruptionKind.allCases.map(\.rawValue)),
        ("ChangeKind", ChangeKind.allCases.map(\.rawValue)),
        ("ContinuousBackgroundMode", BackgroundMode.continuous.sorted()),
        ("TerminationReason", TerminationReason.allCases.map(\.rawValue)),
        ("TerminationCode", Set(TerminationReason.allCases.compactMap(\.kind.code)).sorted()),
        ("TerminationSignal", TerminationSignal.allCases.map(\.rawValue)),
        ("TerminationCategory", TerminationCategory.allCases.map(\.rawValue)),
        ("JetsamReason", JetsamReason.allCases.map(\.rawValue)),
        ("AppResource", AppResource.allCases.map(\.rawValue)),
    ]

    /// The named enum holding exactly these values, if there is one.
    static func named(_ values: [String]) -> String? {
        all.first { Set($0.values) == Set(values) }?.name
    }

    static func values(of name: String) -> [String]? { all.first { $0.name == name }?.values }

    /// Each enum's `enum:` line.
    static var sections: [SpecSection] {
        all.map { SpecSection(name: "enum \($0.name)", lines: ["      enum: " + YAML.list($0.values)]) }
    }
}
