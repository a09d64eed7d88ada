import Testing

@testable import LifecycleApplication

@Suite("Access policy")
struct AccessPolicyTests {
    static let writer = "lcd_writer-secret"
    static let reader = "lcd_reader-secret"
    static let admin = "lcd_admin-secret"

    static let policy: AccessPolicy = {
        let file = """
            {"tokens": [
              {"name": "mail-ci", "sha256": "\(TokenMinter.sha256Hex(writer))", "role": "write", "namespaces": ["mail-*"]},
              {"name": "dash", "sha256": "\(TokenMinter.sha256Hex(reader))", "role": "read", "namespaces": ["*"]},
              {"name": "ops", "sha256": "\(TokenMinter.sha256Hex(admin))", "role": "admin"}]}
            """
        return AccessPolicy(table: TokenTable(try! TokenFile.parse(Array(file.utf8))))
    }()

    private func decide(_ method: String, _ scope: AccessScope, _ secret: String?) -> AccessDecision {
        Self.policy.decide(method: method, scope: scope, authorization: secret.map { "Bearer \($0)" })
    }

    @Test("Without a tokens file everything is allowed")
    func offAllowsAll() {
        let off = AccessPolicy(table: nil)
        #expect(off.decide(method: "POST", scope: .everything, authorization: nil) == .allowed(token: nil))
    }

    @Test("Probes and the contract need no token")
    func openNeedsNoToken() {
        #expect(decide("GET", .open, nil) == .allowed(token: nil))
    }

    @Test("No token, a malformed header or an unknown token is 401")
    func unauthorized() {
        #expect(decide("GET", .namespace("mail-1"), nil).isUnauthorized)
        #expect(decide("GET", .namespace("mail-1"), "lcd_nobody").isUnauthorized)
        let basic = Self.policy.decide(method: "GET", scope: .namespace("x"), authorization: "Basic abc")
        #expect(basic.isUnauthorized)
        let empty = Self.policy.decide(method: "GET", scope: .namespace("x"), authorization: "Bearer   ")
        #expect(empty.isUnauthorized)
    }

    @Test("The scheme is case-insensitive")
    func schemeCase() {
        let decision = Self.policy.decide(method: "GET", scope: .namespace("x"), authorization: "bearer \(Self.reader)")
        #expect(decision.token?.name == "dash")
    }

    @Test("A write token writes inside its namespaces only")
    func writeToken() {
        #expect(decide("POST", .namespace("mail-1"), Self.writer).token?.name == "mail-ci")
        #expect(decide("DELETE", .namespace("mail-1"), Self.writer).token?.name == "mail-ci")
        #expect(decide("POST", .namespace("maps"), Self.writer).isForbidden)
        #expect(decide("GET", .namespace("default"), Self.writer).isForbidden)
        #expect(decide("POST", .everything, Self.writer).isForbidden)
    }

    @Test("A read token reads everywhere it may and changes nothing")
    func readToken() {
        #expect(decide("GET", .namespace("mail-1"), Self.reader).token?.name == "dash")
        #expect(decide("HEAD", .namespace("x"), Self.reader).token?.name == "dash")
        #expect(decide("POST", .namespace("mail-1"), Self.reader).isForbidden)
        #expect(decide("PUT", .namespace("mail-1"), Self.reader).isForbidden)
    }

    @Test("An admin token does everything, including the reset of every namespace")
    func adminToken() {
        #expect(decide("POST", .everything, Self.admin).token?.name == "ops")
        #expect(decide("DELETE", .namespace("any"), Self.admin).token?.name == "ops")
    }

    @Test("Listing namespaces keeps those the token may read")
    func listing() {
        let writer = Self.policy.decide(method: "GET", scope: .namespaceList, authorization: "Bearer \(Self.writer)")
        #expect(Self.policy.mayRead("mail-2", token: writer.token))
        #expect(!Self.policy.mayRead("maps", token: writer.token))
        #expect(!Self.policy.mayRead("maps", token: nil))
        #expect(AccessPolicy(table: nil).mayRead("maps", token: nil))
    }

    @Test("Minted secrets are fresh, long and URL-safe, and their hash is what the file lists")
    func minting() {
        let a = TokenMinter.newSecret()
        let b = TokenMinter.newSecret()
        #expect(a != b)
        #expect(a.hasPrefix("lcd_") && a.utf8.count == 4 + 43)
        #expect(a.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 122) })
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        #expect(TokenMinter.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("Constant-time comparison compares whole strings")
    func comparison() {
        #expect(TokenTable.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!TokenTable.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!TokenTable.constantTimeEqual([1, 2, 3], [1, 2]))
    }

    @Test("base64url of known vectors (RFC 4648 §10, without padding)")
    func base64() {
        #expect(TokenMinter.base64URL(Array("f".utf8)) == "Zg")
        #expect(TokenMinter.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(TokenMinter.base64URL(Array("foo".utf8)) == "Zm9v")
        #expect(TokenMinter.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(TokenMinter.base64URL([0xFB, 0xFF]) == "-_8")
    }
}

extension AccessDecision {
    var isUnauthorized: Bool { if case .unauthorized = self { true } else { false } }
    var isForbidden: Bool { if case .forbidden = self { true } else { false } }
    var token: AccessToken? {
        switch self {
        case .allowed(let token): token
        case .forbidden(let token, _): token
        case .unauthorized: nil
        }
    }
}
