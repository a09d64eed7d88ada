import ArgumentParser
import LifecycleApplication
import LifecycleServer

/// `lifecycled token new`: mints an access token.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Access tokens for --tokens FILE.",
        subcommands: [NewToken.self])
}

/// Prints a fresh random token once, and the line that lists it (by its SHA-256) in the tokens file.
struct NewToken: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Mint a token: prints the token, then the JSON line to add to the tokens file.",
        discussion: """
            The token is printed once and never stored: the tokens file holds only its SHA-256. Add the \
            second line to the "tokens" array of the file, then send SIGHUP to the daemon (or restart it).
            """)

    @Option(help: "A name for the token: logged when a request with it is refused.")
    var name: String

    @Option(help: "read (GET), write (also POST, PUT, DELETE) or admin (everything, every namespace).")
    var role: String

    @Option(
        name: .customLong("namespace"),
        help: "A namespace the token may use, or a prefix ending in * (repeat for more; not needed for admin).")
    var namespaces: [String] = []

    func validate() throws {
        guard let role = AccessRole(rawValue: role) else {
            throw ValidationError("--role must be read, write or admin")
        }
        if role != .admin && namespaces.isEmpty {
            throw ValidationError(
                "a \(role.rawValue) token needs at least one --namespace (a name, or a prefix ending in *)")
        }
        if let bad = namespaces.first(where: { !TokenFile.isNamespacePattern($0) }) {
            throw ValidationError(
                "--namespace \(bad) is neither a namespace name (\(NamespaceName.pattern)) nor a prefix of one ending in *"
            )
        }
    }

    func run() throws {
        let secret = TokenMinter.newSecret()
        do {
            let line = try TokenFile.line(
                name: name, secret: secret, role: AccessRole(rawValue: role)!, namespaces: namespaces)
            print(secret)
            print(line)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
