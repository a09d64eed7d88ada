import Foundation
import LifecycleTesting
import Testing

/// The dashboard's files as the daemon serves them from the binary (the browser test, scripts/dashboard-test,
/// drives the page itself).
@Suite struct DashboardTests {
    static let scripts = ["dashboard.js", "api.js", "events.js", "live.js", "timeline.js", "compare.js"]

    @Test func theRootAnswersThePageAsHTMLUnderAStrictContentSecurityPolicy() throws {
        try withDaemon { server in
            let page = try server.get("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/dashboard/dashboard.js"></script>"#))
            let policy = try #require(page.header("Content-Security-Policy"))
            for directive in [
                "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive) is missing from \(policy)")
            }
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Cache-Control") == "no-cache")
        }
    }

    @Test(arguments: [
        ("dashboard.js", "text/javascript; charset=utf-8"), ("api.js", "text/javascript; charset=utf-8"),
        ("events.js", "text/javascript; charset=utf-8"), ("live.js", "text/javascript; charset=utf-8"),
        ("compare.js", "text/javascript; charset=utf-8"),
        ("timeline.js", "text/javascript; charset=utf-8"), ("dashboard.css", "text/css; charset=utf-8"),
    ])
    func eachFileIsServedWithItsContentType(file: String, contentType: String) throws {
        try withDaemon { server in
            let reply = try server.get("/dashboard/\(file)")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == contentType)
            #expect(reply.body.count > 100)
            #expect(reply.header("Content-Security-Policy") != nil)
        }
    }

    @Test func everyFileThePageAndItsModulesLoadIsServed() throws {
        try withDaemon { server in
            var wanted = Set<String>()
            let page = try server.get("/").text
            wanted.formUnion(matches(of: #"(?:src|href)="/dashboard/([A-Za-z0-9._-]+)""#, in: page))
            for script in Self.scripts {
                let text = try server.get("/dashboard/\(script)").text
                wanted.formUnion(matches(of: #"from "\./([A-Za-z0-9._-]+)""#, in: text))
            }
            #expect(wanted.isSuperset(of: ["dashboard.js", "dashboard.css", "api.js", "live.js"]))
            for file in wanted.sorted() {
                #expect(try server.get("/dashboard/\(file)").status == 200, "\(file) is loaded but not served")
            }
        }
    }

    @Test func thePageHasNoInlineScriptStyleOrHandlerThePolicyWouldBlock() throws {
        try withDaemon { server in
            let page = try server.get("/").text
            #expect(matches(of: #"<script(?![^>]*\bsrc=)[^>]*>"#, in: page).isEmpty)
            #expect(!page.contains("<style"))
            #expect(matches(of: #"\s(style|on[a-z]+)=""#, in: page).isEmpty)
        }
    }

    @Test func aKnownETagAnswers304WithoutABody() throws {
        try withDaemon { server in
            for path in ["/", "/dashboard/dashboard.js"] {
                let first = try server.get(path)
                let tag = try #require(first.header("ETag"))
                let again = try server.get(path, headers: [("If-None-Match", tag)])
                #expect(again.status == 304)
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == tag)
                #expect(try server.get(path, headers: [("If-None-Match", "\"other\"")]).status == 200)
            }
            #expect(try server.get("/").header("ETag") != server.get("/dashboard/api.js").header("ETag"))
        }
    }

    @Test(arguments: ["/dashboard/secrets.txt", "/dashboard/index.html.bak", "/dashboard/", "/dashboard/a/api.js"])
    func anUnknownFileIs404(path: String) throws {
        try withDaemon { server in
            let reply = try server.get(path)
            expectProblem(reply, status: 404, code: "not-found")
        }
    }

    @Test func anUnknownFileNamesTheFilesThereAre() throws {
        try withDaemon { server in
            let reply = try server.get("/dashboard/app.js")
            expectProblem(reply, status: 404, code: "not-found")
            #expect(reply.string("detail")?.contains("dashboard.js") == true)
        }
    }

    @Test func onlyGETIsAnswered() throws {
        try withDaemon { server in
            expectProblem(
                try server.post("/", "{}"), status: 405, code: "method-not-allowed")
            expectProblem(
                try server.post("/dashboard/api.js", "{}"), status: 405, code: "method-not-allowed")
        }
    }

    @Test func thePageLoadsWithoutATokenWhenTokensAreOn() throws {
        try withDaemon(tokens: TokensLiveTests.tokens) { server in
            #expect(try server.get("/").status == 200)
            #expect(try server.get("/dashboard/dashboard.js").status == 200)
            expectProblem(try server.get("/v1/apps"), status: 401, code: "unauthorized")
        }
    }

    private func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
            return String(text[Range(range, in: text)!])
        }
    }
}
