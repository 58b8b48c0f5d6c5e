import Foundation
import TestSupport
import Testing

/// `TestProcess.run`, which every reference decoder and fixture generator goes through: the
/// exit status as the child gave it, and a helper that hangs killed with everything it started.
@Suite("TestProcess: exit statuses and the time limit", .timeLimit(.minutes(3)))
struct TestProcessTests {
    @Test("the exit status is the child's own; a signal's number when a signal ended it")
    func statuses() throws {
        #expect(try TestProcess.run(["true"]) == 0)
        #expect(try TestProcess.run(["sh", "-c", "exit 3"]) == 3)
        #expect(try TestProcess.run(["sh", "-c", "kill -TERM $$"]) == SIGTERM)
        #expect(
            try TestProcess.run(["no-such-program-\(UUID().uuidString)"]) == 127, "env's status for a command not found"
        )
    }

    @Test("standard input is empty: a helper that reads it sees its end at once")
    func emptyInput() throws {
        #expect(try TestProcess.run(["sh", "-c", "read line; test $? -ne 0"]) == 0)
    }

    @Test("a helper still running at its limit is killed with its whole process group, and the error names it")
    func timeoutKillsTheGroup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The helper's own child writes its pid into a FIFO and holds it open: the test sees
        // the end of the stream (no writer left) once that grandchild is dead, an event.
        let fifo = folder.appendingPathComponent("grandchild").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let arguments = ["sh", "-c", "sh -c 'echo $$; exec sleep 1000' > '\(fifo)' & exec sleep 1000"]

        do {
            let status = try TestProcess.run(arguments, timeout: .seconds(2))
            Issue.record("the helper ended by itself with status \(status)")
        } catch let error as TestProcess.TimedOut {
            #expect(error.arguments == arguments)
            #expect(error.description.contains("`sh -c sh -c 'echo $$; exec sleep 1000'"), "\(error)")
        }

        var written: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        var sawTheEnd = false
        // Readable until the last writer is gone; half a minute only bounds a failure (a
        // grandchild that outlived the kill), so the run does not wait for its sleep to end.
        while poll(&descriptor, 1, 30_000) > 0 {
            let count = read(reader, &buffer, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                sawTheEnd = count == 0
                break
            }
            written += buffer[..<count]
        }
        let grandchild = pid_t(String(decoding: written, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            grandchild != nil,
            "the grandchild had started within the 2 s limit (else this machine could not show it was killed)")
        #expect(
            sawTheEnd,
            "the helper's child \(String(describing: grandchild)) still held the FIFO half a minute after the kill")
        if !sawTheEnd, let grandchild { kill(grandchild, SIGKILL) }
    }
}
