import Configuration
import Foundation
import LifecycleCore
import LifecycleDaemon
import LifecycleJSON

/// Why the settings were refused: the setting, its source and value, and what is allowed.
struct SettingError: Error, CustomStringConvertible {
    var description: String
}

/// Reads every setting from the command line, then the environment (`LIFECYCLED_*`), then the
/// configuration file (JSON, `--config` or `LIFECYCLED_CONFIG`), the first that has it winning, each
/// value checked against its type and then its range, over `DaemonConfiguration()`'s defaults. The
/// variables and the file are read through swift-configuration's providers. A name that is no setting's is
/// refused, with the one probably meant: a key of the file, and a `LIFECYCLED_` variable close to a
/// setting's (others of the prefix are the clients' and the project's scripts', e.g. `LIFECYCLED_URL`).
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
    private let file: (path: String, snapshot: JSONSnapshot, raw: [String: JSONValue])?

    init(commandLine: Lifecycled, environment: [String: String]) throws(SettingError) {
        self.commandLine = commandLine
        self.environment = EnvironmentVariablesProvider(environmentVariables: environment)
        try Self.checkVariables(environment)
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

    /// Refuses a `LIFECYCLED_` variable that is no setting's but close to one's (`LIFECYCLED_PROT`), or
    /// spells a flag that is not the key (`LIFECYCLED_TOKENS`): a typo that would otherwise leave the setting
    /// silently at its default. Variables close to none are left alone: the prefix is also the clients'
    /// (`LIFECYCLED_URL`, `LIFECYCLED_TOKEN`) and the project's scripts'.
    private static func checkVariables(_ environment: [String: String]) throws(SettingError) {
        let prefix = Setting.variablePrefix
        let config = "CONFIG"
        let known = Set(Setting.all.map { Setting.variableForm($0.key) } + [config])
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix(prefix) {
            let typed = String(name.dropFirst(prefix.count))
            guard !known.contains(typed),
                let meant = Setting.meant(by: typed, others: [config], form: Setting.variableForm)
            else { continue }
            let source = Source.environment(name: name, value: value)
            throw SettingError(description: "\(source): not a setting's variable; did you mean \(prefix + meant)?")
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
        guard
            let content = try? file.snapshot.value(forKey: AbsoluteConfigKey([setting.key]), type: type).value?.content,
            let value = Self.settingValue(content)
        else {
            throw SettingError(description: "\(source): \(setting.key) must be \(setting.allowed)")
        }
        return (value, source)
    }

    /// What a file's value is when it is not of the setting's type (a boolean where a number is expected, a
    /// fraction where an integer is); nil when it is.
    private static func mismatch(_ value: JSONValue, _ kind: Setting.Kind) -> String? {
        switch (kind, value) {
        case (.integer, .number(let number)) where number.rounded() != number: return "a fraction"
        case (.integer, .number(let number)) where Double(Int.min) > number || number >= Double(Int.max):
            return "a number too large for an integer"
        case (.integer, .number), (.number, .number), (.flag, .bool), (.text, .string), (.choice, .string):
            return nil
        case (.list, .array(let items)):
            return items.first { $0.stringValue == nil }.map { "an array holding \(named($0))" }
        default:
            return named(value)
        }
    }

    /// A value's JSON type as a sentence names it: "a boolean", "an array", "null".
    private static func named(_ value: JSONValue) -> String {
        if value == .null { return "null" }
        return (["array", "object"].contains(value.typeName) ? "an " : "a ") + value.typeName
    }

    /// The file, parsed by swift-configuration's JSON snapshot; a key that is no setting's is refused, and so is a
    /// file its group or every user may write: whoever can write it can name any tokens file and allow
    /// unauthenticated access.
    private static func readFile(_ path: String) throws(SettingError) -> (String, JSONSnapshot, [String: JSONValue]) {
        let bits = FilePermissions.groupWrites | FilePermissions.othersWrite
        if let exposure = FilePermissions.exposure(of: path, among: bits) {
            throw SettingError(
                description: "--config \(path) \(exposure): whoever may write it can name any tokens file and allow "
                    + "unauthenticated access; make it writable by its owner only, e.g. chmod 644 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingError(description: "--config \(path): cannot read the file")
        }
        let bytes = [UInt8](data)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw SettingError(description: "--config \(path) is not JSON: \(syntax(error, in: bytes))")
        }
        guard case .object(let raw) = document else {
            throw SettingError(
                description: "--config \(path): not a JSON object of settings (it holds \(named(document)))")
        }
        // Every key a setting's, and every value of its setting's type, whichever source wins.
        let settings = Dictionary(uniqueKeysWithValues: Setting.all.map { ($0.key, $0) })
        for (key, value) in raw.sorted(by: { $0.key < $1.key }) {
            guard let setting = settings[key] else {
                let hint =
                    Setting.meant(by: key) { $0 }.map { "did you mean \"\($0)\"?" }
                    ?? "the keys are " + Setting.all.map(\.key).joined(separator: ", ")
                throw SettingError(description: "\"\(key)\" in \(path) is not a setting; \(hint)")
            }
            if let found = mismatch(value, setting.kind) {
                let source = Source.file(path: path, key: key, value: shown(value))
                // A file's flag is a JSON boolean (a variable may also say 1/0, yes/no).
                let expected = setting.kind == .flag ? "true or false" : setting.allowed
                throw SettingError(description: "\(source): \(key) must be \(expected), not \(found)")
            }
        }
        let snapshot: JSONSnapshot
        do {
            snapshot = try JSONSnapshot(data: bytes.span.bytes, providerName: path, parsingOptions: .default)
        } catch {
            throw SettingError(description: "--config \(path): not read as JSON (\(error))")
        }
        return (path, snapshot, raw)
    }

    /// A syntax error as an editor would find it: "line 3, column 1: unexpected character '}'; expected a key
    /// in double quotes".
    private static func syntax(_ error: JSONParseError, in bytes: [UInt8]) -> String {
        let (line, column) = error.location(in: bytes)
        let expected = error.expected.map { "; expected \($0)" } ?? ""
        return "line \(line), column \(column): \(error.problem)\(expected)"
    }

    /// A file's value as JSON shows it.
    private static func shown(_ raw: JSONValue) -> String {
        String(decoding: JSONWriter.encode(raw), as: UTF8.self)
    }
}
