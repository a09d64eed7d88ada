import LifecycleCore
import LifecycleJSON
import LifecycleWire
import Testing

/// An export recreates devices and apps from their configurations: the bodies `ConfigurationEncoder` writes
/// decode back into the same configurations, whatever they hold.
@Suite struct ConfigurationEncoderTests {
    static let devices = [
        #"{}"#,
        #"{"iosVersion": "3.1.3", "multitasking": false, "passcode": true, "memoryMB": 256, "clock": {"mode": "realtime", "speed": 2.5}, "suspendDelay": 0.25, "idiom": "pad", "sceneDisconnectDelay": 30, "settings": {"locale": "fr_FR", "orientation": "landscapeLeft", "batteryLevel": 0.5}}"#,
    ]
    static let apps = [
        #"{"bundleId": "b"}"#,
        #"{"bundleId": "com.example.full", "iosVersion": "13.0", "sdkVersion": "12.4", "memoryMB": 300, "sensitiveViews": ["balance", "card"], "restorableState": {"tab": 2, "draft": {"to": "x"}}, "info": {"exitsOnSuspend": true, "backgroundModes": ["audio", "fetch"], "urlSchemes": ["full"], "sceneManifest": {"supportsMultipleScenes": true, "configurations": [{"name": "Main", "role": "UIWindowSceneSessionRoleApplication", "delegateClass": "SceneDelegate"}, {"name": "Other", "delegateClass": null}]}, "externalAccessoryProtocols": ["com.example.p"], "launchImages": ["Default", "Default-full"]}, "delegate": {"notImplemented": ["applicationWillTerminate:"], "durations": {"applicationDidEnterBackground:": 4.5}, "returns": {"application:didFinishLaunchingWithOptions:": false, "application:configurationForConnectingSceneSession:options:": "Other"}, "endsTasksOnExpiration": false, "actions": {"applicationDidEnterBackground:": [{"do": "beginBackgroundTask", "name": "save", "duration": 3}, {"do": "hideViews", "views": ["card"]}, {"do": "acquire", "resource": "calendar"}, {"do": "showAlert", "style": "alert", "title": "Hi"}, {"do": "useGPU"}]}}}"#,
    ]

    @Test(arguments: devices) func aDeviceBodyDecodesToTheSameConfiguration(_ body: String) throws {
        let first = try DeviceRequest(try JSONParser.parse(Array(body.utf8)))
        let written = ConfigurationEncoder.device(id: "d", first.configuration)
        let again = try DeviceRequest(written)
        #expect(again.configuration == first.configuration)
        #expect(again.id == "d")
        let manual = try DeviceRequest(ConfigurationEncoder.device(id: "d", first.configuration, clockMode: .manual))
        #expect(manual.configuration.clockMode == .manual)
    }

    @Test(arguments: apps) func anAppBodyDecodesToTheSameConfiguration(_ body: String) throws {
        let first = try AppRequest(try JSONParser.parse(Array(body.utf8)))
        let again = try AppRequest(ConfigurationEncoder.app(id: "a", device: "d", first.configuration))
        #expect(again.configuration == first.configuration)
        #expect(again.id == "a" && again.device == "d")
    }
}
