import Foundation
import StickerPack
import Testing

/// The VoiceOver label made from a file's name, and the labels that read as a file's name
/// rather than as what the sticker shows, against cases written out by hand.
@Suite("VoiceOver labels", .timeLimit(.minutes(1)))
struct VoiceOverLabelTests {
    @Test(
        "a file's name made a label: order numbers dropped, separators spaced, camel case split, the first letter capitalised",
        arguments: [
            ("01-bouncing-blob", "Bouncing blob"), ("thumbsUpBig", "Thumbs up big"),
            ("3_party_parrot", "3 party parrot"),
            ("Beating heart", "Beating heart"), ("Привет_мир", "Привет мир"), ("😀happy", "😀happy"),
            ("NASA rocket", "NASA rocket"), ("heartEyesNASA", "Heart eyes NASA"), ("001", "001"), ("a--b__c", "A b c"),
            ("12 days of xmas", "12 days of xmas"), ("007-bond", "Bond"), ("Café Time!", "Café Time!"),
            ("1-up", "1 up"), ("iPhoneX", "iPhone X"), ("iPad-case", "iPad case"), ("cube-3D", "Cube 3D"),
            ("007.png", "007"), ("my.cool.sticker", "My cool sticker"), ("heart@2x", "Heart"),
            ("01 - Happy Cat", "Happy Cat")
        ])
    func fromFileName(name: String, label: String) {
        #expect(VoiceOverLabel.fromFileName(name) == label)
    }

    @Test(
        "labels that name a file are told apart from ones that describe: camera and export names, bare numbers, underscores, extensions",
        arguments: [
            ("IMG 2041", true), ("IMG_2041", true), ("Sticker 3 final v2", true), ("12345", true), ("Artboard 1", true),
            ("Screenshot 2024-05-01 at 10.12.33", true), ("heart.png", true), ("untitled", true),
            ("DSC 0012 copy", true),
            ("DSC01234", true), ("IMG1234", true), ("image (1)", true), ("Untitled (2)", true),
            ("Bouncing blob", false), ("Beating heart", false), ("Thumbs up big", false), ("Привет мир", false),
            ("😀happy", false), ("12 days of xmas", false), ("Final boss", false), ("Party parrot v2", false),
            ("New", false), ("Frame", false), ("Photo", false), ("100", false), ("2024", false), ("Copy cat", false)
        ])
    func namesAFile(label: String, namesAFile: Bool) {
        #expect((VoiceOverLabel.fileNameLikeness(label) != nil) == namesAFile, "\(label)")
    }
}
