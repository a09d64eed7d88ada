import Foundation

/// Who besides its owner may read or write a file the daemon trusts (the tokens file, the settings file): the
/// one check of a file's mode, through any symbolic link (a Kubernetes secret's file is one, itself 0777).
public enum FilePermissions {
    /// Its group may write it.
    public static let groupWrites = 0o020
    /// Every user may read it.
    public static let othersRead = 0o004
    /// Every user may write it.
    public static let othersWrite = 0o002

    /// What the file's mode allows of `bits` (`groupWrites`, `othersRead`, `othersWrite`), said as "may be
    /// written by its group (mode 664)"; nil when it allows none of them, or the file cannot be looked at (the
    /// reading that follows says so).
    public static func exposure(of path: String, among bits: Int) -> String? {
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int,
            mode & bits != 0
        else { return nil }
        let allowed = mode & bits
        var who: [String] = []
        if allowed & groupWrites != 0 { who.append("written by its group") }
        switch (allowed & othersRead != 0, allowed & othersWrite != 0) {
        case (true, true): who.append("read and written by every user")
        case (true, false): who.append("read by every user")
        case (false, true): who.append("written by every user")
        case (false, false): break
        }
        return "may be \(who.joined(separator: ", and ")) (mode \(String(mode & 0o777, radix: 8)))"
    }
}
