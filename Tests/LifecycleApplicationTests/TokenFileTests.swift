import Testing

@testable import LifecycleApplication

@Suite("Tokens file")
struct TokenFileTests {
    static let hash = String(repeating: "ab", count: 32)

    private func parse(_ text: String) throws(TokenFile.Error) -> [AccessToken] {
        try TokenFile.parse(Array(text.utf8))
    }

    private func failure(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A file with a token of each role parses, with globs and an admin without namespaces")
    func parsesEachRole() throws {
        let tokens = try parse(
            """
            {"tokens": [
              {"name": "mail-ci", "sha256": "\(Self.hash)", "role": "write", "namespaces": ["mail", "mail-*"]},
              {"name": "dash", "sha256": "\(String(repeating: "CD", count: 32))", "role": "read", "namespaces": ["*"]},
              {"name": "ops", "sha256": "\(String(repeating: "01", count: 32))", "role": "admin"}]}
            """)
        #expect(tokens.map(\.name) == ["mail-ci", "dash", "ops"])
        #expect(tokens.map(\.role) == [.write, .read, .admin])
        #expect(tokens[0].covers("mail") && tokens[0].covers("mail-42") && !tokens[0].covers("mailx"))
        #expect(tokens[1].covers("anything") && tokens[2].covers("anything"))
        #expect(tokens[1].digest == Array(repeating: 0xCD, count: 32))
    }

    @Test(
        "Every mistake is refused with a message that names where it is",
        arguments: [
            ("[]", "must be a JSON object"),
            ("{\"tokens\": [], \"extra\": 1}", "unknown member extra"),
            ("{\"tokens\": {}}", "\"tokens\" must be an array"),
            ("{\"tokens\": [1]}", "tokens[0] must be an object"),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"read\", \"namespaces\": [\"x\"], \"secret\": 1}]}",
                "tokens[0]: unknown member secret"
            ),
            (
                "{\"tokens\": [{\"sha256\": \"\(hash)\", \"role\": \"read\", \"namespaces\": [\"x\"]}]}",
                "tokens[0].name"
            ),
            (
                "{\"tokens\": [{\"name\": \"a b\", \"sha256\": \"\(hash)\", \"role\": \"read\", \"namespaces\": [\"x\"]}]}",
                "tokens[0].name"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"abc\", \"role\": \"read\", \"namespaces\": [\"x\"]}]}",
                "tokens[0].sha256 must be 64 hexadecimal digits"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(String(repeating: "zz", count: 32))\", \"role\": \"read\", \"namespaces\": [\"x\"]}]}",
                "tokens[0].sha256"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"owner\", \"namespaces\": [\"x\"]}]}",
                "tokens[0].role must be one of read, write, admin"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\"}]}",
                "tokens[0].namespaces is required"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\", \"namespaces\": []}]}",
                "must not be empty"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\", \"namespaces\": [\"Mail\"]}]}",
                "tokens[0].namespaces[0]"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\", \"namespaces\": [\"m*a*\"]}]}",
                "tokens[0].namespaces[0]"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\", \"namespaces\": [\"*mail\"]}]}",
                "tokens[0].namespaces[0]"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"write\", \"namespaces\": \"mail\"}]}",
                "must be an array"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"admin\"}, {\"name\": \"a\", \"sha256\": \"\(String(repeating: "cd", count: 32))\", \"role\": \"admin\"}]}",
                "tokens[1].name: a is used twice"
            ),
            (
                "{\"tokens\": [{\"name\": \"a\", \"sha256\": \"\(hash)\", \"role\": \"admin\"}, {\"name\": \"b\", \"sha256\": \"\(hash.uppercased())\", \"role\": \"admin\"}]}",
                "the same hash is listed twice"
            ),
            ("{\"tokens\": [", "not JSON"),
        ])
    func refusesMistakes(text: String, message: String) {
        let description = failure(text)
        #expect(description?.contains(message) == true, "\(description ?? "accepted")")
    }

    @Test("Namespace patterns: a name, a prefix with one trailing star, or a lone star")
    func patterns() {
        #expect(NamespacePattern("mail")?.matches("mail") == true)
        #expect(NamespacePattern("mail")?.matches("mail-1") == false)
        #expect(NamespacePattern("mail-*")?.matches("mail-1") == true)
        #expect(NamespacePattern("mail-*")?.matches("mail") == false)
        #expect(NamespacePattern("*")?.matches("x") == true)
        #expect(NamespacePattern("-*") == nil)
        #expect(NamespacePattern("mail-") == nil)
        #expect(NamespacePattern("") == nil)
    }

    @Test("Namespace names are DNS labels")
    func names() {
        #expect(NamespaceName.isValid("a") && NamespaceName.isValid("team-1") && NamespaceName.isValid("default"))
        #expect(NamespaceName.isValid(String(repeating: "a", count: 63)))
        #expect(!NamespaceName.isValid(String(repeating: "a", count: 64)))
        #expect(!NamespaceName.isValid("") && !NamespaceName.isValid("-a") && !NamespaceName.isValid("a-"))
        #expect(!NamespaceName.isValid("A") && !NamespaceName.isValid("a_b") && !NamespaceName.isValid("a.b"))
    }
}
