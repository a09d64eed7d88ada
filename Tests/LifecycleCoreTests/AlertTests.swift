import Testing

@testable import LifecycleCore

/// §6: an app's alerts and action sheets stay up across the background from iOS 4; an app linked before 4.0 has
/// them cancelled when it quits, so their cancel handlers run (seed 000 §3.3 (9)).
@Suite struct AlertTests {
    static let shows: [String: [CallbackAction]] = [
        Selector.didBecomeActive: [
            .showAlert(style: .alert, title: "Unsaved changes"), .showAlert(style: .actionSheet, title: nil),
        ]
    ]

    @Test("§6 showAlert puts alerts up, oldest first; from iOS 4 they stay up across the background")
    func keptAcrossTheBackground() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", actions: Self.shows)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").alerts.map(\.style) == [.alert, .actionSheet])
        #expect(sim.app("a").alerts.first?.title == "Unsaved changes")
        try sim.on("a", .homeButton)
        #expect(sim.state("a") == .suspended)
        #expect(sim.app("a").alerts.count == 2)
        #expect(!sim.selectors("a").contains { Selector.alertSelectors.contains($0) })
    }

    @Test(
        "§6 linked before 4.0 (here on iOS 3.1), an app quitting has its alerts cancelled, newest first, then applicationWillTerminate:"
    )
    func cancelledAtQuitOnOldOS() throws {
        var sim = Sim(ios: "3.1")
        sim.add("a", actions: Self.shows)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(
            sim.last.entries.selectors(of: "a") == [
                Selector.actionSheetCancel, Selector.alertViewCancel, Selector.willTerminate,
            ])
        #expect(sim.last.entries.callbackArgs(of: "a")[1] == ["title": .string("Unsaved changes")])
        #expect(sim.app("a").alerts.isEmpty)
    }

    @Test("§6 running on an OS before 4.0, an app has its alerts cancelled at quit whatever SDK it linked")
    func cancelledAtQuitByTheOS() throws {
        var sim = Sim(ios: "3.1")
        sim.add("a", sdk: "4.0", actions: Self.shows)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(
            sim.last.entries.selectors(of: "a") == [
                Selector.actionSheetCancel, Selector.alertViewCancel, Selector.willTerminate,
            ])
        #expect(sim.app("a").alerts.isEmpty)
    }

    @Test("§6 on a 4.0+ OS an app linked before 4.0 passes through the background, then its alerts are cancelled")
    func cancelledAtQuitOnNewOS() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", ios: "3.1", actions: Self.shows)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(
            sim.last.entries.selectors(of: "a") == [
                Selector.willResignActive, Selector.didEnterBackground, Selector.actionSheetCancel,
                Selector.alertViewCancel, Selector.willTerminate,
            ])
    }

    @Test("§6 without alertViewCancel: UIKit taps the cancel button instead")
    func fallbackToCancelButton() throws {
        var sim = Sim(ios: "3.1")
        sim.add(
            "a", notImplemented: [Selector.alertViewCancel],
            actions: [Selector.didBecomeActive: [.showAlert(style: .alert, title: nil)]])
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.alertViewClickedButton, Selector.willTerminate])
        #expect(sim.last.entries.callbackArgs(of: "a").first == ["cancelButton": .bool(true)])
    }

    @Test(
        "§6 linked with 4.0, an app that quits (exitsOnSuspend) has no cancel callback; its alerts go with the process")
    func newSDKNotCancelled() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", exitsOnSuspend: true, actions: Self.shows)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive, Selector.willTerminate])
        #expect(sim.app("a").alerts.isEmpty)
    }

    @Test("§6 dismissAlerts takes them down; at most 16 show, more are ignored")
    func dismissAndLimit() throws {
        var sim = Sim(ios: "7.0")
        sim.add(
            "a",
            actions: [
                Selector.didBecomeActive: Array(repeating: .showAlert(style: .alert, title: nil), count: 16),
                Selector.willEnterForeground: [.showAlert(style: .alert, title: "one too many")],
            ])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").alerts.count == 16)
        try sim.on("a", .homeButton, .activate(session: nil))
        #expect(sim.app("a").alerts.count == 16)
        #expect(!sim.app("a").alerts.contains { $0.title == "one too many" })
        var dismisses = Sim(ios: "7.0")
        dismisses.add(
            "a",
            actions: Self.shows.merging([Selector.didEnterBackground: [.dismissAlerts]]) { $1 })
        try dismisses.on("a", .foregroundLaunch, .homeButton)
        #expect(dismisses.app("a").alerts.isEmpty)
    }
}
