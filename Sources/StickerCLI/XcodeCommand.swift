import ArgumentParser
import FoundationEssentials
import StickerBench
import StickerFit
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers xcode`: a Sticker Pack App project, ready for Xcode and App Store Connect, from
/// anything `fit` takes.
public struct XcodeCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "xcode",
        abstract:
            "Write a Sticker Pack App Xcode project (app, sticker pack extension, catalog, scheme) from any images.",
        discussion: """
            The inputs are fitted as `stickers fit` fits them (every fit option applies) unless --no-fit, which takes one .xcstickers catalog (or a project) as it is. The project is laid out as Xcode's Sticker Pack App template lays it out: DIR/NAME.xcodeproj (with a shared scheme NAME, so `xcodebuild -scheme NAME archive` works on a Mac), DIR/NAME/Info.plist for the app and DIR/NAME StickerPackExtension/ with its Info.plist and Stickers.xcstickers. Identifiers are derived from the names, so writing the same pack twice gives the same bytes. The project's folders are replaced as a whole (other files in DIR are left alone), written all-or-nothing, then validated with the App Store's rules as `stickers validate DIR` does. Only an earlier project of this command is replaced: a folder of those names holding anything else (a folder of your own, the input images), a NAME.xcodeproj from elsewhere, the current folder and a DIR inside a catalog are refused, nothing written.
            """)

    @Argument(
        help: ArgumentHelp(
            "Images, folders of images, .xcstickers catalogs or .stickerpack folders.", valueName: "input"),
        completion: .file())
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The folder to write the project into (created if missing).", valueName: "dir"),
        completion: .file())
    var output: String

    @Option(help: ArgumentHelp("The project's and the app's name.", valueName: "name"))
    var name: String

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp(
            "The app's bundle identifier (letters, digits, '-' and '.'); the extension's adds .StickerPackExtension.",
            valueName: "id"))
    var bundleIdentifier: String

    @Option(help: ArgumentHelp("The development team identifier (default: none; choose it in Xcode).", valueName: "id"))
    var team: String?

    /// CFBundleShortVersionString, as `--app-version`, not `--version`: `--version` is the
    /// tool's own everywhere, and the argument parser answers it whenever a command line fails
    /// to parse. Taken whatever it looks like (as `--build`), so `-2` is named as no version
    /// rather than as a missing value.
    @Option(
        name: .customLong("app-version"), parsing: .unconditional,
        help: ArgumentHelp("The app's version, CFBundleShortVersionString.", valueName: "x.y.z"))
    var version = "1.0"

    /// CFBundleVersion. Taken whatever it looks like, so `--build -1` is named as no build
    /// number rather than as a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp("The build number, CFBundleVersion.", valueName: "n"))
    var build = "1"

    @Option(
        name: .customLong("deployment-target"),
        help: ArgumentHelp(
            "The lowest iOS the app runs on (15.0: the lowest Xcode 16 and 26 build for).", valueName: "ios"))
    var deploymentTarget = StickerAppSpec.defaultDeploymentTarget

    @Option(
        name: .customLong("display-name"),
        help: ArgumentHelp("The name under the icon in Messages (default: --name).", valueName: "name"))
    var displayName: String?

    @Option(help: ArgumentHelp("NSHumanReadableCopyright (default: none).", valueName: "text"))
    var copyright: String?

    @Flag(
        name: .customLong("no-fit"),
        help:
            "Copy one .xcstickers catalog (or a project's) into the project as it is, without fitting; files it links to are copied, and what a catalog does not use (other files, links to them) is left out, named."
    )
    var noFit = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// How every sticker is fitted.
    @OptionGroup var settings: FitSettings

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// The project's identity from the options.
    var spec: StickerAppSpec {
        StickerAppSpec(
            name: name, bundleIdentifier: bundleIdentifier, team: team, version: version, build: build,
            deploymentTarget: deploymentTarget, displayName: displayName, copyright: copyright)
    }

    /// Checks the options before any work.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name at least one image, folder or catalog.") }
        guard !output.isEmpty else { throw ValidationError(OutputFolder.emptyPathMessage) }
        if let problem = spec.problems.first {
            throw ValidationError(problem.prefix(1).uppercased() + problem.dropFirst() + ".")
        }
        if noFit, inputs.count != 1 {
            throw ValidationError("--no-fit takes one .xcstickers catalog (or a project holding one).")
        }
        let ignored = settings.fittingOptionsGiven
        if noFit, !ignored.isEmpty {
            throw ValidationError(
                "\(ignored.joined(separator: ", ")) \(ignored.count == 1 ? "applies" : "apply") to fitting, which --no-fit leaves out."
            )
        }
    }

    /// Runs the command.
    public func run() throws {
        let start = Date()
        let spec = self.spec
        // With --json, a run that stops before fitting still prints a report (fit's, empty; with
        // --no-fit validate's, its one finding), its error the one stderr names.
        func stopped(_ error: any Error) throws -> Never {
            let failure = error as? CLIError ?? CLIError(errorReason(error))
            if json, noFit {
                try TerminalOutput.json(ValidationReport.unreadable(pack: spec.projectBundleName, reason: "\(failure)"))
            } else if json {
                try FitCommand.printStopped(failure, catalog: spec.projectBundleName, settings: settings, start: start)
            }
            throw failure
        }
        let folder: OutputFolder
        do {
            try checkReplaceable(spec)
            folder = try OutputFolder(final: output, movedInByEntry: true)
        } catch {
            try stopped(error)
        }
        var fitted: FitSettings.FittedCatalog?
        do {
            if noFit {
                do {
                    try copyCatalog(
                        into: folder.staging.appendingPathComponent(spec.catalogPath), staging: folder.staging)
                } catch {
                    folder.discard()
                    try stopped(error)
                }
            } else {
                // The project written into an input folder of images is not read as that
                // folder next time: its bundle and its two folders are left out of it.
                let root = URL(fileURLWithPath: output)
                let catalog: FitSettings.FittedCatalog
                do {
                    catalog = try settings.fit(
                        inputs,
                        outputs: [spec.projectBundleName, spec.name, spec.extensionName].map {
                            root.appendingPathComponent($0)
                        })
                } catch {
                    folder.discard()
                    try stopped(error)
                }
                fitted = catalog
                guard !catalog.entries.isEmpty else {
                    folder.discard()
                    try report(catalog, validation: nil, start: start, nothingWritten: "no sticker could be fitted")
                    throw ExitCode.failure
                }
                let replaced = [
                    spec.projectBundleName, spec.name,
                    String(spec.catalogPath.split(separator: "/").first ?? "")
                ]
                if let loss = catalog.inputLoss(writing: folder, entries: replaced, catalog: spec.catalogPath) {
                    // The project's catalog would be replaced by one without part of the inputs.
                    folder.discard()
                    try report(
                        catalog, validation: nil, start: start,
                        nothingWritten:
                            "the project in \(output) holds the inputs and \(loss.description), so it is left as it was (write the project elsewhere \(loss.advice))"
                    )
                    throw ExitCode.failure
                }
                try settings.writeCatalog(catalog, to: folder.staging.appendingPathComponent(spec.catalogPath))
            }
            try XcodeProjectWriter.write(spec, to: folder.staging)
            // What Xcode and its user added to the earlier project (per-user state, a scheme of
            // their own) goes with the new one.
            let earlier = URL(fileURLWithPath: output).appendingPathComponent(spec.projectBundleName)
            do {
                try XcodeProjectWriter.carryXcodeState(
                    from: earlier, into: folder.staging.appendingPathComponent(spec.projectBundleName))
            } catch let error as XcodeProjectWriter.XcodeStateError {
                throw CLIError(
                    "\(earlier.path): \(error), so the project is not replaced (Xcode's own files in it would be lost)")
            }
            try folder.commitEntries()
        } catch let error as ExitCode {
            throw error
        } catch let error as CLIError {
            folder.discard()
            throw error
        } catch {
            folder.discard()
            throw CLIError("\(output): cannot be written (\(errorReason(error)))")
        }
        let bundle = URL(fileURLWithPath: output).appendingPathComponent(spec.projectBundleName).path
        for earlier in XcodeProjectWriter.earlierProjects(in: URL(fileURLWithPath: output), besides: spec.name) {
            TerminalOutput.errorLine(
                "warning: \(output) also holds \(earlier).xcodeproj, written earlier under that name, with its folders \"\(earlier)\" and \"\(earlier) StickerPackExtension\": remove the three to rename the project (a folder of two projects is no pack: validate asks which to use)"
            )
        }
        let validation = PackValidator(limits: settings.limits.limits).validate(try PackInput.load([bundle]))
        if let fitted {
            try report(fitted, validation: validation, start: start, written: writtenBundle)
        } else if json {
            try TerminalOutput.json(validation)
        } else {
            TerminalOutput.line(ValidateCommand.text(validation))
        }
        if !json, fitted == nil { TerminalOutput.line("wrote \(writtenBundle)") }
        let failures = fitted.map { $0.fitted.filter { !$0.succeeded }.count } ?? 0
        if failures > 0 || !validation.passed { throw ExitCode.failure }
    }

    /// Refuses an output whose project folders hold what this project does not write (a
    /// user's folder that happens to carry the app's name, the input images themselves), a
    /// project of that name written by anything else, the current folder, and a folder inside
    /// a sticker catalog: replacing them would lose files without a word.
    private func checkReplaceable(_ spec: StickerAppSpec) throws {
        let root = URL(fileURLWithPath: output).standardizedFileURL
        if let catalog = EnclosingCatalog.of(root) {
            throw CLIError(
                "\(output): is inside the sticker catalog \(catalog.path), so no project is written there; name a folder beside the catalog"
            )
        }
        for (entry, written) in XcodeProjectWriter.entriesWritten(for: spec).sorted(by: { $0.key < $1.key }) {
            let path = root.appendingPathComponent(entry).path
            // A file or a link where the project puts a folder is the user's: never replaced.
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                throw CLIError(
                    "\(path): is a file, not a folder this project wrote, so it is not replaced; name another --output or --name"
                )
            }
            let isProject = entry == spec.projectBundleName
            try OutputFolder.checkReplaceable(
                path,
                isEarlierOutput: { entries in
                    entries.allSatisfy(written.contains)
                        && (!isProject || XcodeProjectWriter.isWritten(URL(fileURLWithPath: path), name: spec.name))
                },
                refusal: { entries in
                    let foreign = entries.filter { !written.contains($0) }
                    return foreign.isEmpty
                        ? "is a project this command did not write, so it is not replaced; name another --output or --name"
                        : "holds files this project does not write (\(OutputFolder.listing(foreign))), so it is not replaced; name another --output or --name"
                })
        }
    }

    /// The project's bundle as the user named its folder: `-o App/` writes `App/NAME.xcodeproj`.
    private var writtenBundle: String {
        var folder = Substring(output)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return "\(folder)/\(spec.projectBundleName)"
    }

    /// The fit report with the project's validation, and what was written (the project's
    /// bundle) or why nothing was.
    private func report(
        _ catalog: FitSettings.FittedCatalog, validation: ValidationReport?, start: Date, written: String? = nil,
        nothingWritten: String? = nil
    ) throws {
        var report = FitReport(
            catalog: spec.projectBundleName, size: catalog.size, maxBytes: settings.maxBytes, stickers: catalog.fitted,
            validation: validation, seconds: Date().timeIntervalSince(start), options: catalog.options)
        report.peakResidentBytes = PeakMemory.bytes()
        report.written = written
        report.nothingWritten = nothingWritten
        try FitCommand.printReport(report, json: json)
        guard !json else { return }
        if let nothingWritten { TerminalOutput.line("nothing written: " + nothingWritten) }
        if let written { TerminalOutput.line("wrote \(written)") }
    }

    /// Copies the one catalog the input is (or holds) to `destination`, its links followed
    /// (``ResolvedCopy``).
    private func copyCatalog(into destination: URL, staging: URL) throws {
        let pack = try PackInput.load(inputs)
        guard let catalog = pack.catalogFolder else {
            throw CLIError("\(inputs[0]): --no-fit takes an .xcstickers catalog, or a project holding one")
        }
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ResolvedCopy.copy(catalog, to: destination, outside: staging)
    }
}
