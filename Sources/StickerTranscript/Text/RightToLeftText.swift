/// Text in a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko and the other scripts
/// of Unicode's right-to-left blocks). Such text needs the bidirectional algorithm, from FriBidi;
/// without it the layout sets it left to right, so it reads backwards (and Arabic's letters do
/// not join), and a transcript names the lines that hold it rather than draw them wrong
/// without a word.
public enum RightToLeftText {
    /// Whether `text` holds a character of a right-to-left script.
    public static func isIn(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isRightToLeft)
    }

    /// Whether `scalar` is in a right-to-left block: Hebrew to Arabic Extended-A
    /// (U+0590-08FF), the Hebrew and Arabic presentation forms (U+FB1D-FDFF, U+FE70-FEFE; not
    /// U+FEFF, the byte order mark), and
    /// the right-to-left blocks of the supplementary planes (U+10800-10FFF, U+1E800-1EFFF).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
