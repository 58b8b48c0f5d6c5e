import Foundation

/// Runs helper programs (Python scripts, reference decoders) from the tests.
public enum TestProcess {
    /// Runs `arguments` through `/usr/bin/env`, its output discarded; the exit status.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
