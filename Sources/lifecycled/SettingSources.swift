import Configuration
import Foundation
import LifecycleDaemon

/// Why the settings were refused: the setting, its source and value, and what is allowed.
struct SettingError: Error, CustomStringConvertible {
    var description: String
}

/// Reads every setting from the command line, then the environment (`LIFECYCLED_*`), then the
/// configuration file (JSON, `--config` or `LIFECYCLED_CONFIG`), the first that has it winning, each
/// value checked against its type and then its range, over `DaemonConfiguration()`'s defaults. The
/// variables and the file are read through swift-configuration's providers.
struct SettingSources {
    /// Where a value came from, as a message names it.
    enum Source: CustomStringConvertible {
        case commandLine(flag: String, value: String)
        case environment(name: String, value: String)
        case file(path: String, key: String, value: String)

        var description: String {
            switch self {
            case .commandLine(let flag, let value): value.isEmpty ? flag : "\(flag) \(value)"
            case .environment(let name, let value): "\(name)=\(value)"
            case .file(let path, let key, let value): "\"\(key)\": \(value) in \(path)"
            }
        }
    }

    private let commandLine: Lifecycled
    private let environment: EnvironmentVariablesProvider
    private let file: (path: String, snapshot: JSONSnapshot, raw: [String: Any])?

    init(commandLine: Lifecycled, environment: [String: String]) throws(SettingError) {
        self.commandLine = commandLine
        self.environment = EnvironmentVariablesProvider(environmentVariables: environment)
        let path = commandLine.config ?? environment["LIFECYCLED_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        file = try path.map { path throws(SettingError) in try Self.readFile(path) }
    }

    /// The settings, or the first thing wrong with them.
    func resolve() throws(SettingError) -> Settings {
        var settings = Settings()
        var sources: [String: Source] = [:]
        for setting in Setting.all {
            guard let (value, source) = try value(of: setting) else { continue }
            if case .choice(let choices) = setting.kind, case .text(let text) = value, !choices.contains(text) {
                throw SettingError(description: "\(source): \(setting.key) must be \(setting.allowed)")
            }
            setting.apply(&settings, value)
            sources[setting.key] = source
        }
        if let memory = sources["in-memory"], let directory = sources["data-dir"],
            settings.daemon.store == .memory
        {
            throw SettingError(
                description: "\(directory) and \(memory): data-dir and in-memory exclude each other: choose one")
        }
        if let problem = settings.daemon.firstProblem {
            guard let source = sources[problem.setting] else { throw SettingError(description: problem.description) }
            throw SettingError(description: "\(source): \(problem.setting) \(problem.allowed)")
        }
        return settings
    }

    /// The setting's value from the first source that has it; nil when none does.
    private func value(of setting: Setting) throws(SettingError) -> (SettingValue, Source)? {
        if let value = setting.commandLine(commandLine) {
            let shown = setting.kind == .flag ? "" : value.description
            return (value, .commandLine(flag: setting.flagName, value: shown))
        }
        if let found = try fromEnvironment(setting) { return found }
        return try fromFile(setting)
    }

    private static func configType(_ kind: Setting.Kind) -> ConfigType {
        switch kind {
        case .integer: .int
        case .number: .double
        case .flag: .bool
        case .text, .choice: .string
        case .list: .stringArray
        }
    }

    private static func settingValue(_ content: ConfigContent) -> SettingValue? {
        switch content {
        case .int(let value): .integer(value)
        case .double(let value): .number(value)
        case .bool(let value): .flag(value)
        case .string(let value): .text(value)
        case .stringArray(let values): .list(values)
        default: nil
        }
    }

    /// An empty variable counts as unset.
    private func fromEnvironment(_ setting: Setting) throws(SettingError) -> (SettingValue, Source)? {
        guard let raw = try? environment.environmentValue(forName: setting.variable), !raw.isEmpty else { return nil }
        let source = Source.environment(name: setting.variable, value: raw)
        let key = AbsoluteConfigKey(["lifecycled", setting.key])
        guard let content = try? environment.value(forKey: key, type: Self.configType(setting.kind)).value?.content,
            var value = Self.settingValue(content)
        else {
            throw SettingError(description: "\(source): \(setting.key) must be \(setting.allowed)")
        }
        if case .list(let items) = value { value = .list(items.filter { !$0.isEmpty }) }
        return (value, source)
    }

    private func fromFile(_ setting: Setting) throws(SettingError) -> (SettingValue, Source)? {
        guard let file, let raw = file.raw[setting.key] else { return nil }
        let source = Source.file(path: file.path, key: setting.key, value: Self.shown(raw))
        let type = Self.configType(setting.kind)
        guard let content = try? file.snapshot.value(forKey: AbsoluteConfigKey([setting.key]), type: type).value?.content,
            let value = Self.settingValue(content)
        else {
            throw SettingError(description: "\(source): \(setting.key) must be \(setting.allowed)")
        }
        return (value, source)
    }

    /// The file, parsed by swift-configuration's JSON snapshot; a key that is no setting's is refused.
    private static func readFile(_ path: String) throws(SettingError) -> (String, JSONSnapshot, [String: Any]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingError(description: "--config \(path): cannot read the file")
        }
        let snapshot: JSONSnapshot
        let raw: [String: Any]
        do {
            let bytes = [UInt8](data)
            snapshot = try JSONSnapshot(data: bytes.span.bytes, providerName: path, parsingOptions: .default)
            raw = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        } catch {
            throw SettingError(
                description: "--config \(path): not a JSON object of settings (\(error)); keys: \(Setting.listing)")
        }
        let known = Set(Setting.all.map(\.key))
        if let unknown = raw.keys.sorted().first(where: { !known.contains($0) }) {
            let keys = Setting.all.map(\.key).joined(separator: ", ")
            throw SettingError(description: "\"\(unknown)\" in \(path) is not a setting; the keys are \(keys)")
        }
        return (path, snapshot, raw)
    }

    /// A file's value as JSON shows it.
    private static func shown(_ raw: Any) -> String {
        if let text = raw as? String { return "\"\(text)\"" }
        if let data = try? JSONSerialization.data(withJSONObject: raw, options: [.fragmentsAllowed]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(raw)"
    }
}
