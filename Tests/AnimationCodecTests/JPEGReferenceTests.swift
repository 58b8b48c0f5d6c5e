import AnimationCodec
import Testing

/// Greyscale, Adobe CMYK and progressive JPEGs, written by Pillow and by ImageMagick, and the
/// corpus's baseline colour JPEG decode to Pillow's pixels exactly. Both sides run
/// libjpeg-turbo (Debian's here, Pillow's own build there) with its defaults, the integer
/// IDCT and fancy upsampling, whose output is the same in every version and with or without
/// SIMD: no tolerance. CMYK goes to RGB by the browsers' formula on both sides
/// (``PillowJPEGReference/script``).
@Suite("JPEG against Pillow", .timeLimit(.minutes(3)))
struct JPEGReferenceTests {
    static let samples: [PillowJPEGReference.Sample] = (try? PillowJPEGReference.make()) ?? []

    @Test("Pillow and ImageMagick wrote every kind of sample")
    func samplesMade() {
        #expect(
            Set(Self.samples.map(\.name)) == [
                "corpus-06-blob-card.jpg",
                "imagemagick-cmyk.jpg", "imagemagick-greyscale.jpg", "imagemagick-progressive.jpg",
                "pillow-cmyk.jpg", "pillow-greyscale.jpg", "pillow-progressive-cmyk.jpg",
                "pillow-progressive-greyscale.jpg", "pillow-progressive.jpg"
            ])
    }

    @Test("each decodes to exactly Pillow's pixels, opaque", arguments: samples)
    func matchesPillow(_ sample: PillowJPEGReference.Sample) throws {
        let decoder = try AnimationDecoder(bytes: sample.bytes)
        let components = ["L": "1", "RGB": "3", "CMYK": "4"][sample.mode]
        #expect(decoder.info.details["components"] == components, "Pillow reads it as \(sample.mode)")
        #expect(decoder.info.details["progressive"] == String(sample.isProgressive))
        let frame = try decoder.frame(at: 0)
        #expect(frame.width == sample.width && frame.height == sample.height)
        #expect(Reference.mismatches(frame.pixels, sample.expected) == 0)
    }

    @Test(
        "a progressive JPEG of 100 scans decodes; one of 101 (its last scan repeated) is refused before it decodes for minutes"
    )
    func scanLimit() throws {
        let sample = try #require(Self.samples.first { $0.name == "pillow-progressive.jpg" })
        let bytes = sample.bytes
        // A scan starts at an SOS marker (FF DA); in entropy-coded data FF is followed by 00 or
        // a restart marker, so every FF DA is one. Repeat the last scan before the EOI marker.
        let starts = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        let end = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 })
        let lastScan = Array(bytes[starts.last!..<end])
        #expect(starts.count > 1 && starts.count < 100, "\(starts.count) scans")
        func repeated(toScans count: Int) -> [UInt8] {
            Array(bytes[..<end]) + Array(repeating: lastScan, count: count - starts.count).flatMap { $0 } + [0xFF, 0xD9]
        }
        let hundred = try AnimationDecoder(bytes: repeated(toScans: 100)).frame(at: 0)
        #expect(hundred.width == sample.width && hundred.height == sample.height)
        #expect(throws: CodecError.jpeg(message: "a progressive JPEG of more than 100 scans")) {
            _ = try AnimationDecoder(bytes: repeated(toScans: 101)).frame(at: 0)
        }
    }
}
