import Foundation
import LifecycleDaemon
import Logging

/// What the command line, the environment and the configuration file decide: the daemon's configuration
/// and the executable's own (its log).
struct Settings {
    var daemon = DaemonConfiguration()
    var logLevel = Logger.Level.info
    var logFormat = LogFormat.text
}

/// How log lines look: `text` (swift-log's own lines) or `json` (one object per line, `JSONLogHandler`).
enum LogFormat: String, CaseIterable {
    case text, json
}

/// A value as a source gave it, before it is applied.
enum SettingValue: CustomStringConvertible {
    case integer(Int)
    case number(Double)
    case flag(Bool)
    case text(String)
    case list([String])

    var description: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): value.description
        case .flag(let value): String(value)
        case .text(let value): value
        case .list(let values): values.joined(separator: ",")
        }
    }
}

/// One setting, described once: its key (the configuration file's key; the flag is `--key` unless
/// `flag` says otherwise, the variable `LIFECYCLED_KEY` with `-` as `_`), its type, how to read it from
/// the parsed command line, and where it goes. Ranges are `DaemonConfiguration.firstProblem`'s.
struct Setting {
    enum Kind: Equatable {
        case integer, number, flag, text, list
        /// Text, one of these.
        case choice([String])
    }

    let key: String
    let kind: Kind
    /// The flag, when it is not `--key`.
    let flag: String?
    let commandLine: (Lifecycled) -> SettingValue?
    let apply: (inout Settings, SettingValue) -> Void

    var flagName: String { flag ?? "--\(key)" }
    var variable: String { Self.variablePrefix + Self.variableForm(key) }

    /// The prefix of every setting's variable (and of `LIFECYCLED_CONFIG`).
    static let variablePrefix = "LIFECYCLED_"

    /// A key as its variable spells it after the prefix: in capitals, `-` as `_`.
    static func variableForm(_ key: String) -> String { key.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// What a value of this kind is, for messages.
    var allowed: String {
        switch kind {
        case .integer: "an integer"
        case .number: "a number"
        case .flag: "true or false (also 1/0, yes/no)"
        case .text: "text"
        case .list: "a list of text (comma-separated in a variable)"
        case .choice(let choices): "one of " + choices.joined(separator: ", ")
        }
    }
}

extension Setting {
    static func integer(
        _ key: String, flag: String? = nil, _ path: KeyPath<Lifecycled, Int?>,
        _ apply: @escaping (inout Settings, Int) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: .integer, flag: flag, commandLine: { $0[keyPath: path].map(SettingValue.integer) },
            apply: { settings, value in if case .integer(let number) = value { apply(&settings, number) } })
    }

    static func number(
        _ key: String, _ path: KeyPath<Lifecycled, Double?>, _ apply: @escaping (inout Settings, Double) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: .number, flag: nil, commandLine: { $0[keyPath: path].map(SettingValue.number) },
            apply: { settings, value in
                switch value {
                case .number(let number): apply(&settings, number)
                case .integer(let number): apply(&settings, Double(number))
                default: break
                }
            })
    }

    /// A flag on the command line counts only when given (`--in-memory`); the environment and the file may
    /// say true or false.
    static func flag(
        _ key: String, _ path: KeyPath<Lifecycled, Bool>, _ apply: @escaping (inout Settings, Bool) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: .flag, flag: nil, commandLine: { $0[keyPath: path] ? .flag(true) : nil },
            apply: { settings, value in if case .flag(let on) = value { apply(&settings, on) } })
    }

    static func text(
        _ key: String, flag: String? = nil, kind: Kind = .text, _ path: KeyPath<Lifecycled, String?>,
        _ apply: @escaping (inout Settings, String) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: kind, flag: flag, commandLine: { $0[keyPath: path].map(SettingValue.text) },
            apply: { settings, value in if case .text(let text) = value { apply(&settings, text) } })
    }

    /// A repeatable flag (`--allowed-host a --allowed-host b`); the variable is comma-separated.
    static func list(
        _ key: String, flag: String, _ path: KeyPath<Lifecycled, [String]>,
        _ apply: @escaping (inout Settings, [String]) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: .list, flag: flag,
            commandLine: { $0[keyPath: path].isEmpty ? nil : .list($0[keyPath: path]) },
            apply: { settings, value in if case .list(let values) = value { apply(&settings, values) } })
    }
}
