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
}
