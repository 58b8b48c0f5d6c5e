import AnimationCodec
import FoundationEssentials
import StickerPixels

/// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole): images sent once as PNG and,
/// for an animation, every later frame as the rectangle that changed over the frame before,
/// with its gap, so the terminal plays the loop itself and nothing more is sent.
package enum KittyGraphics {
    /// One frame of an animation: the picture and how long it shows, in seconds.
    package struct Frame {
        /// The whole picture (premultiplied).
        package var image: RGBAImage
        /// Seconds until the next frame.
        package var duration: Double

        /// Creates a frame.
        package init(image: RGBAImage, duration: Double) {
            self.image = image
            self.duration = duration
        }
    }

    /// The support query: a 1x1 RGB image in a query action (`a=q`), answered with
    /// `ESC _G i=31;OK ESC \` by a terminal that speaks the protocol, stored by none.
    package static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"

    /// The image number of ``animationProbe``.
    package static let animationProbeID = 32

    /// Whether the terminal takes animation frames: a 1x1 image stored quietly, a frame added
    /// to it (answered `ESC _G i=32,r=2;OK ESC \` by kitty; with an error, or not at all, by a
    /// terminal that shows only stills), then the image deleted quietly.
    package static let animationProbe =
        "\u{1B}_Ga=t,i=\(animationProbeID),s=1,v=1,f=24,q=2;AAAA\u{1B}\\"
        + "\u{1B}_Ga=f,i=\(animationProbeID),s=1,v=1,f=24;AAAA\u{1B}\\"
        + "\u{1B}_Ga=d,d=I,i=\(animationProbeID),q=2\u{1B}\\"

    /// One command: the control keys, and the payload in base64 chunks of at most 4096 bytes.
    /// The first escape holds every key; the others `m`, and, as kitty's own `icat` sends them,
    /// the action and `q` (kitty 0.26 reads a chunk without its action as a new image).
    static func command(_ control: String, payload: [UInt8] = []) -> String {
        guard !payload.isEmpty else { return "\u{1B}_G\(control)\u{1B}\\" }
        let encoded = Array(Data(payload).base64EncodedString().utf8)
        let carried = control.split(separator: ",").filter { $0.hasPrefix("a=") || $0.hasPrefix("q=") }
            .joined(separator: ",")
        var out = ""
        var start = 0
        while start < encoded.count {
            let end = min(start + 4096, encoded.count)
            let more = end < encoded.count ? 1 : 0
            let keys = start == 0 ? "\(control),m=\(more)" : "\(carried),m=\(more)"
            out += "\u{1B}_G\(keys);" + String(decoding: encoded[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        }
        return out
    }

    /// A still shown at the cursor: one PNG, stored as image `id`.
    package static func still(_ image: RGBAImage, id: UInt32, moveCursor: Bool = true) -> String {
        let png = PNGEncoder.encode(premultiplied: image.pixels, width: image.width, height: image.height)
        return command("a=T,f=100,i=\(id),q=2\(moveCursor ? "" : ",C=1")", payload: png)
    }

    /// An animation shown at the cursor and played by the terminal `loops` times (0: forever):
    /// the first frame as the image, each later one as the rectangle that changed (replacing
    /// those pixels of the frame before; a frame equal to the one before adds its time to it),
    /// every gap in whole milliseconds with the rounding carried, so the loop keeps its length.
    package static func animation(
        _ frames: [Frame], id: UInt32, loops: Int, speed: Double = 1, moveCursor: Bool = true
    ) -> String {
        guard let first = frames.first else { return "" }
        guard frames.count > 1 else { return still(first.image, id: id, moveCursor: moveCursor) }
        // Frames that change nothing merge into the one before.
        var shown: [(image: RGBAImage, duration: Double, changed: PixelRect?)] = [(first.image, first.duration, nil)]
        for frame in frames.dropFirst() {
            if let rect = changedRect(from: shown[shown.count - 1].image, to: frame.image) {
                shown.append((frame.image, frame.duration, rect))
            } else {
                shown[shown.count - 1].duration += frame.duration
            }
        }
        guard shown.count > 1 else { return still(first.image, id: id, moveCursor: moveCursor) }
        var gaps: [Int] = []
        var elapsed = 0.0
        var sent = 0
        for frame in shown {
            elapsed += frame.duration / speed
            let gap = max(1, Int((elapsed * 1000).rounded()) - sent)
            gaps.append(gap)
            sent += gap
        }
        var out = still(first.image, id: id, moveCursor: moveCursor)
        for (number, frame) in shown.enumerated().dropFirst() {
            let rect = frame.changed!
            let part = frame.image.cropped(to: rect)
            let png = PNGEncoder.encode(premultiplied: part.pixels, width: part.width, height: part.height)
            // Frame `number + 1` (1-based): the previous frame as its base, this rectangle
            // replacing its pixels (X=1, so a pixel that turns transparent does).
            out += command(
                "a=f,i=\(id),f=100,c=\(number),x=\(rect.x),y=\(rect.y),X=1,z=\(gaps[number]),q=2", payload: png)
        }
        out += command("a=a,i=\(id),r=1,z=\(gaps[0]),q=2")
        // v=1 loops forever, v=n plays n - 1 loops after the first.
        out += command("a=a,i=\(id),s=3,v=\(loops <= 0 ? 1 : loops + 1),q=2")
        return out
    }

    /// Deletes image `id` and its data.
    package static func delete(id: UInt32) -> String { command("a=d,d=I,i=\(id),q=2") }

    /// Stores `image` as image `id` (a PNG) without showing it.
    package static func upload(_ image: RGBAImage, id: UInt32) -> String {
        let png = PNGEncoder.encode(premultiplied: image.pixels, width: image.width, height: image.height)
        return command("a=t,f=100,i=\(id),q=2", payload: png)
    }

    /// Shows stored image `id` at the cursor as its placement 1, the cursor left where it is.
    package static func place(id: UInt32) -> String { command("a=p,i=\(id),p=1,C=1,q=2") }

    /// Removes image `id`'s placement 1 from the screen, keeping its data for a later
    /// ``place(id:)``.
    package static func unplace(id: UInt32) -> String { command("a=d,d=i,i=\(id),p=1,q=2") }

    /// The smallest rectangle holding every pixel that differs between two pictures of one
    /// size; nil when they are equal.
    static func changedRect(from old: RGBAImage, to new: RGBAImage) -> PixelRect? {
        let width = new.width
        var (minX, minY, maxX, maxY) = (width, new.height, -1, -1)
        old.pixels.withUnsafeBytes { oldRaw in
            new.pixels.withUnsafeBytes { newRaw in
                let a = oldRaw.bindMemory(to: UInt32.self)
                let b = newRaw.bindMemory(to: UInt32.self)
                for y in 0..<new.height {
                    let row = y * width
                    var x = 0
                    while x < width && a[row + x] == b[row + x] { x += 1 }
                    guard x < width else { continue }
                    var last = width - 1
                    while a[row + last] == b[row + last] { last -= 1 }
                    minX = min(minX, x)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

/// iTerm2's inline images (OSC 1337 `File=`; iTerm2, WezTerm, Konsole, VS Code's terminal):
/// one file the terminal decodes and plays itself, a GIF for an animation.
package enum ITerm2Image {
    /// The escape that shows `file` (`name` for the terminal's records) at the cursor,
    /// `width` x `height` pixels.
    package static func show(_ file: [UInt8], name: String, width: Int, height: Int) -> String {
        let encodedName = Data(name.utf8).base64EncodedString()
        return "\u{1B}]1337;File=name=\(encodedName);size=\(file.count);width=\(width)px;height=\(height)px;"
            + "preserveAspectRatio=0;inline=1:" + Data(file).base64EncodedString() + "\u{07}"
    }

    /// The GIF of `frames` (each flattened over `backdrop`, 256 colours a frame), played
    /// `loops` times (0: forever), each frame starting at its own time in hundredths of a second
    /// (rounded, so the rounding never adds up); a still is a PNG. No frame is shown for less
    /// than ``shortestDelay``: browsers and ImageIO show a 10 ms delay for 100 ms, so a frame
    /// that would start within it of the one before is left out, and that one is shown until
    /// the next frame kept (a 60 fps loop is sent at 50 fps or less, its length kept).
    package static func file(
        _ frames: [KittyGraphics.Frame], loops: Int, speed: Double = 1,
        backdrop: (red: UInt8, green: UInt8, blue: UInt8)
    ) -> [UInt8] {
        guard let first = frames.first else { return [] }
        guard frames.count > 1 else {
            return PNGEncoder.encode(
                premultiplied: first.image.pixels, width: first.image.width, height: first.image.height)
        }
        var elapsed = 0.0
        var starts: [Int] = []
        for frame in frames {
            starts.append(Int((elapsed * 100).rounded()))
            elapsed += frame.duration / speed
        }
        let end = Int((elapsed * 100).rounded())
        let shown = shownFrames(starts: starts, end: end)
        let encoded = shown.indices.map { number -> GIFEncoder.Frame in
            let indexed = IndexedImage(frames[shown[number].frame].image, over: backdrop)
            let next = number + 1 < shown.count ? shown[number + 1].start : end
            return GIFEncoder.Frame(
                indexes: indexed.indexes, palette: indexed.palette, transparentIndex: indexed.transparentIndex,
                delayCentiseconds: max(shortestDelay, next - shown[number].start))
        }
        return GIFEncoder.encode(frames: encoded, width: first.image.width, height: first.image.height, plays: loops)
    }

    /// The shortest delay written, in hundredths of a second: browsers and ImageIO show a delay of
    /// one hundredth for ten.
    package static let shortestDelay = 2

    /// The frames a GIF shows, each with the hundredth it starts at, for frames starting at
    /// `starts` (from 0, never falling) in a loop ending at `end`. A GIF frame starts where a
    /// frame does, but not under ``shortestDelay`` after the GIF frame before it; each shows the
    /// frame that is on screen longest during it (the earlier on a tie), so a flash of 12 ms
    /// before a frame of 500 ms gives way to that frame, not the other way round. The last
    /// frame, so the loop rests on it, is shown for the last ``shortestDelay`` of the loop where
    /// it would be shown for less (or not at all), the frame before it shortened but kept; where
    /// that frame would then be too short, the last frame takes its place.
    package static func shownFrames(starts: [Int], end: Int) -> [(frame: Int, start: Int)] {
        guard starts.count > 1 else { return [(0, 0)] }
        // The frames each GIF frame starts with.
        var firsts = [0]
        for index in starts.indices.dropFirst() where starts[index] - starts[firsts[firsts.count - 1]] >= shortestDelay
        {
            firsts.append(index)
        }
        var shown: [(frame: Int, start: Int)] = []
        for (number, first) in firsts.enumerated() {
            let covered = first..<(number + 1 < firsts.count ? firsts[number + 1] : starts.count)
            let longest = covered.max { a, b in
                let (lengthA, lengthB) = (
                    Self.length(a, starts: starts, end: end), Self.length(b, starts: starts, end: end)
                )
                return lengthA != lengthB ? lengthA < lengthB : a > b
            }
            shown.append((longest ?? first, starts[first]))
        }
        let last = starts.count - 1
        let tail = shown[shown.count - 1]
        guard tail.frame != last || end - tail.start < shortestDelay else { return shown }
        if tail.frame == last { shown.removeLast() }
        // The last frame starts at the end's last two hundredths, or where the frame it follows
        // would be left too short, in that frame's place (shown for at least two hundredths: a
        // loop of frames crowded at its end may come out a hundredth longer).
        let start = end - shortestDelay
        if start - shown[shown.count - 1].start >= shortestDelay {
            shown.append((last, start))
        } else {
            shown[shown.count - 1].frame = last
        }
        return shown
    }

    /// How long frame `index` of frames starting at `starts` shows in a loop ending at `end`.
    private static func length(_ index: Int, starts: [Int], end: Int) -> Int {
        (index + 1 < starts.count ? starts[index + 1] : end) - starts[index]
    }
}
