/// Every format the daemon stores, and the versions of each it reads: each is written in its newest version and
/// every earlier one still reads. `Tests/Fixtures/formats` (a folder per format and version: `snapshot-v1`...) holds bytes of each version as a build
/// wrote them, and `StoredFormatFixtureTests` reads them all, so a version without its fixture fails the tests.
///
/// | format | its records | written now | reads |
/// |---|---|---|---|
/// | `journal-record` | a device's journal stream (`JournaledInput`, `JournalRecordFormat`) | 2 | 1, 2 |
/// | `snapshot` | a device's snapshot (`StoredSnapshot`; its entries in `EntryCoding`'s form) | 4 | 1–4 |
/// | `namespace-settings` | a namespace's stream, `@namespace/NAME` (`NamespaceSettings`) | 1 | 1 |
/// | `import-marker` | an import under way, `@import/...` (`ImportMarker`) | 1 | 1 |
package enum StoredFormat: String, CaseIterable, Sendable {
    case journalRecord = "journal-record"
    case snapshot
    case namespaceSettings = "namespace-settings"
    case importMarker = "import-marker"

    /// The version written now; every version from 1 to it is read.
    package var current: Int {
        switch self {
        case .journalRecord: JournalRecordFormat.current
        case .snapshot: Int(StoredSnapshot.version)
        case .namespaceSettings: NamespaceSettings.version
        case .importMarker: ImportMarker.version
        }
    }

    /// Reads `bytes` as this format does where the daemon reads it; throws what that reader throws.
    package func read(_ bytes: [UInt8]) throws {
        switch self {
        case .journalRecord: _ = try JournaledInput(bytes: bytes)
        case .snapshot: _ = try StoredSnapshot(bytes: bytes)
        case .namespaceSettings: _ = try NamespaceSettings(record: bytes)
        case .importMarker: _ = try ImportMarker(record: bytes)
        }
    }
}
