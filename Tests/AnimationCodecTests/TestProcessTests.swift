import Foundation
import Testing
import TestSupport

/// `TestProcess.run`, which every reference decoder and fixture generator goes through: the
/// exit status as the child gave it, and a helper that hangs killed with everything it started.
@Suite("TestProcess: exit statuses and the time limit", .timeLimit(.minutes(1)))
struct TestProcessTests {
    @Test("the exit status is the child's own; a signal's number when a signal ended it")
    func statuses() throws {
        #expect(try TestProcess.run(["true"]) == 0)
        #expect(try TestProcess.run(["sh", "-c", "exit 3"]) == 3)
        #expect(try TestProcess.run(["sh", "-c", "kill -TERM $$"]) == SIGTERM)
        #expect(try TestProcess.run(["no-such-program-\(UUID().uuidString)"]) == 127, "env's status for a command not found")
    }

    @Test("standard input is empty: a helper that reads it sees its end at once")
    func emptyInput() throws {
        #expect(try TestProcess.run(["sh", "-c", "read line; test $? -ne 0"]) == 0)
    }

    /// Where a thread's call to `TestProcess.run` ended, read after the thread signals.
    final class Outcome: @unchecked Sendable {
        var result: Result<Int32, any Error>?
    }

    @Test("a helper still running at its limit is killed with its whole process group, and the error names it")
    func timeoutKillsTheGroup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The helper's own child holds a FIFO open for writing: the test reads its end of
        // the stream (no writer left) only once that grandchild is dead, an event, not a guess.
        let fifo = folder.appendingPathComponent("grandchild").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let arguments = ["sh", "-c", "(echo started; exec sleep 1000) > '\(fifo)' & exec sleep 1000"]

        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            outcome.result = Result { try TestProcess.run(arguments, timeout: .seconds(2)) }
            finished.signal()
        }.start()
        finished.wait()

        switch outcome.result {
        case .failure(let error as TestProcess.TimedOut):
            #expect(error.arguments == arguments)
            #expect(error.description.contains("sh -c (echo started; exec sleep 1000)"), "\(error)")
        case let other:
            Issue.record("expected TestProcess.TimedOut, got \(String(describing: other))")
        }
        // Blocking from here on: the read returns what the grandchild wrote, then the end of
        // the stream when it has died (were it alive, the read would wait and the time limit fail).
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        var written: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(reader, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += buffer[..<count]
        }
        #expect(String(decoding: written, as: UTF8.self) == "started\n",
                "the grandchild had started within the 2 s limit (else this machine could not show the group was killed)")
    }
}
