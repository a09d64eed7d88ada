import Logging

/// Quiet unless something goes wrong: the journal logs every open and close at info.
let testLogger: Logger = {
    var logger = Logger(label: "lifecycled.store.tests")
    logger.logLevel = .warning
    return logger
}()

func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
