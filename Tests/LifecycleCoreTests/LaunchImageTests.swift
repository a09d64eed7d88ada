import Testing

@testable import LifecycleCore

/// §4: the launch image the system shows as it launches an app in front, and the one named for a URL's scheme
/// (seed 000 §3.1: "Providing Launch Images for Custom URL Schemes").
@Suite struct LaunchImageTests {
    static func sim(images: [String]? = ["Default", "Default-mail"], ios: String = "7.0") -> Sim {
        var sim = Sim(ios: ios)
        sim.add("a", urlSchemes: ["mail", "notes"], launchImages: images)
        return sim
    }

    @Test("§4 a foreground launch shows Default, before any state change or callback")
    func plainLaunch() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch)
        let trace = sim.trace("a")
        #expect(trace.first == "launch image Default")
        #expect(trace.dropFirst().first == "state notRunning→inactive")
        #expect(trace.filter { $0.hasPrefix("launch image") }.count == 1)
    }

    @Test("§4 a URL launch shows the image named for the URL's scheme, else Default")
    func urlLaunch() throws {
        var sim = Self.sim()
        try sim.on("a", .urlLaunch("MAIL://inbox"))
        #expect(sim.trace("a").first == "launch image Default-mail")
        try sim.on("a", .forceQuit)
        try sim.on("a", .urlLaunch("notes://1"))
        #expect(sim.last.entries.trace(of: "a").first == "launch image Default")
    }

    @Test("§4 without Default, only a URL launch with its own image shows one")
    func onlySchemeImage() throws {
        var sim = Self.sim(images: ["Default-mail"])
        try sim.on("a", .foregroundLaunch)
        #expect(!sim.trace("a").contains { $0.hasPrefix("launch image") })
        try sim.on("a", .forceQuit)
        try sim.on("a", .urlLaunch("mail://x"))
        #expect(sim.last.entries.trace(of: "a").first == "launch image Default-mail")
    }

    @Test("§4 no image for a background launch, a resume, or an app that lists none")
    func noImage() throws {
        var sim = Self.sim()
        try sim.on("a", .backgroundLaunch)
        try sim.on("a", .open("mail://x"))
        try sim.on("a", .homeButton)
        try sim.on("a", .activate(session: nil))
        #expect(!sim.trace("a").contains { $0.hasPrefix("launch image") })
        var none = Self.sim(images: nil)
        try none.on("a", .urlLaunch("mail://x"))
        #expect(!none.trace("a").contains { $0.hasPrefix("launch image") })
    }

    @Test("§4 a scene app shows no launch image entry (its launch storyboard has no per-scheme variant)")
    func sceneApp() throws {
        var sim = Sim(ios: "17.0")
        sim.add("a", urlSchemes: ["mail"], scenes: .standard, launchImages: ["Default", "Default-mail"])
        try sim.on("a", .urlLaunch("mail://x"))
        #expect(!sim.trace("a").contains { $0.hasPrefix("launch image") })
    }
}
