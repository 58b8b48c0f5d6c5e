import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's Chromium, headless, driven through its DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: JSON messages ended by a NUL byte, commands on its fd 3,
/// replies and events on its fd 4), so the tests need no WebSocket and no browser framework.
/// One page; every wait is for a message, with a deadline that only fails a test.
public final class HeadlessChromium {
    /// Why the browser could not be driven.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The Chromium binary Debian installs.
    public static let executable = "/usr/bin/chromium"

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private let profile: URL
    private var buffer: [UInt8] = []
    private var nextID = 1
    private var session = ""
    /// Every event received so far, in order (`method`, `params`).
    public private(set) var events: [(method: String, params: [String: Any])] = []
    /// How long any one reply may take before the test fails.
    public var deadline: TimeInterval = 60

    /// Starts Chromium with one blank page and attaches to it.
    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing: `make test` installs Debian's chromium")
        }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickers-chromium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe() failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            Self.executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
            "--mute-audio", "--disable-extensions", "--disable-background-networking", "--allow-file-access-from-files",
            "about:blank"
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Chromium's own temporary folders (org.chromium.Chromium.*), which it cannot remove
        // when it is killed, go inside the profile, which is removed with it.
        let scratch = profile.appendingPathComponent("tmp")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, Self.executable, &actions, nil, &argv, &envp)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else {
            close(toBrowser[1]); close(fromBrowser[0])
            throw Failure(description: "cannot start \(Self.executable): \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toBrowser[1]
        replies = fromBrowser[0]
        let targets = try send("Target.getTargets", session: nil)
        let infos = (targets["targetInfos"] as? [[String: Any]]) ?? []
        guard let page = infos.first(where: { ($0["type"] as? String) == "page" })?["targetId"] as? String else {
            throw Failure(description: "no page target")
        }
        let attached = try send("Target.attachToTarget", ["targetId": page, "flatten": true], session: nil)
        session = attached["sessionId"] as? String ?? ""
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] { _ = try send(domain) }
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(commands)
        close(replies)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command to the page (or, with `session: nil`, to the browser) and returns its
    /// result; events that arrive meanwhile are kept in ``events``.
    @discardableResult
    public func send(_ method: String, _ params: [String: Any] = [:], session: String?? = .none) throws -> [String: Any]
    {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        let target: String? = session ?? self.session
        if let target { message["sessionId"] = target }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "\(method): the browser closed its pipe") }
            offset += written
        }
        while true {
            let reply = try nextMessage()
            if let replyID = reply["id"] as? Int, replyID == id {
                if let error = reply["error"] as? [String: Any] { throw Failure(description: "\(method): \(error)") }
                return reply["result"] as? [String: Any] ?? [:]
            }
        }
    }

    /// Waits for the next event named `method` (one already received since `index` counts).
    public func waitForEvent(_ method: String, after index: Int = 0) throws -> [String: Any] {
        var seen = index
        while true {
            while seen < events.count {
                if events[seen].method == method { return events[seen].params }
                seen += 1
            }
            _ = try nextMessage()
        }
    }

    /// Loads `url` and waits for its load event.
    public func navigate(_ url: String) throws {
        let mark = events.count
        try send("Page.navigate", ["url": url])
        _ = try waitForEvent("Page.loadEventFired", after: mark)
    }

    /// Evaluates `expression` in the page (promises awaited) and returns its value as JSON
    /// values; a thrown exception fails the test.
    @discardableResult
    public func evaluate(_ expression: String) throws -> Any? {
        let result = try send(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] { throw Failure(description: "script failed: \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Lays the page out in a viewport `width` CSS pixels wide (a phone's at 390), in `scheme`
    /// (`light` or `dark`).
    public func setViewport(width: Int, height: Int = 900, scheme: String = "light") throws {
        try send(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600])
        try send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
    }

    /// A PNG of the CSS-pixel rectangle (`x`, `y`, `width`, `height`) of the page.
    public func screenshot(x: Double, y: Double, width: Double, height: Double) throws -> Data {
        let result = try send(
            "Page.captureScreenshot",
            [
                "format": "png", "captureBeyondViewport": true,
                "clip": ["x": x, "y": y, "width": width, "height": height, "scale": 1]
            ])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot data")
        }
        return data
    }

    /// Errors the page reported: console errors, uncaught exceptions, failed loads.
    public var pageErrors: [String] {
        events.compactMap { event in
            switch event.method {
            case "Runtime.exceptionThrown":
                return "exception: \(event.params["exceptionDetails"] ?? "")"
            case "Runtime.consoleAPICalled" where (event.params["type"] as? String) == "error":
                return "console.error: \(event.params["args"] ?? "")"
            case "Log.entryAdded":
                let entry = event.params["entry"] as? [String: Any] ?? [:]
                return (entry["level"] as? String) == "error"
                    ? "log: \(entry["text"] ?? "") \(entry["url"] ?? "")" : nil
            default:
                return nil
            }
        }
    }

    private func nextMessage() throws -> [String: Any] {
        let end = Date().addingTimeInterval(deadline)
        while true {
            if let nul = buffer.firstIndex(of: 0) {
                let body = Data(buffer[..<nul])
                buffer.removeSubrange(...nul)
                guard let message = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
                if let method = message["method"] as? String {
                    events.append((method, message["params"] as? [String: Any] ?? [:]))
                }
                return message
            }
            let remaining = end.timeIntervalSinceNow
            guard remaining > 0 else {
                throw Failure(description: "no reply from the browser within \(Int(deadline)) s")
            }
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno != EINTR { throw Failure(description: "poll failed") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(replies, &chunk, chunk.count)
            guard count > 0 else { throw Failure(description: "the browser closed its pipe") }
            buffer += chunk[..<count]
        }
    }
}
