/// One EBML element (Matroska's and WebM's building block): its ID, with the length marker
/// kept as Matroska's tables write IDs, and where its data lies in the file.
struct EBMLElement: Sendable {
    /// The ID, marker bits included (a Segment is 0x18538067).
    var id: UInt32
    /// Where the element's header starts.
    var start: Int
    /// The data's bytes. An element of unknown size reaches to the end of its parent.
    var data: Range<Int>
    /// Whether the size field was all ones ("unknown", as a live muxer writes a Segment or Cluster).
    var hasUnknownSize: Bool
    /// Whether the file ends before the data its size declares: the data reaches to the file's
    /// end (only when read with `cutAtFileEnd`).
    var isCut = false
}

/// Reads EBML elements from a byte array, never past the bounds of the element that holds
/// them: every size is checked against its parent before anything is read, so a lying size
/// is a typed error, not an overrun.
struct EBMLReader {
    let bytes: [UInt8]

    /// The element whose header starts at `offset`, inside a parent whose data ends at `end`.
    /// With `cutAtFileEnd`, an element whose data the file ends inside is read as reaching to
    /// the file's end, marked ``EBMLElement/isCut``, so what is whole of it can be read.
    /// - Throws: `.truncated` when the file ends inside the element's header (or its data,
    ///   without `cutAtFileEnd`), `.malformed` when an ID or size is invalid or the element
    ///   overruns a parent that ends before the file does.
    func element(at offset: Int, end: Int, cutAtFileEnd: Bool = false) throws(CodecError) -> EBMLElement {
        let (id, idLength) = try variableInteger(
            at: offset, end: end, maxLength: 4, what: "element ID", keepMarker: true)
        let (size, sizeLength) = try variableInteger(
            at: offset + idLength, end: end, maxLength: 8,
            what: "size of element \(hexID(id))", keepMarker: false)
        let dataStart = offset + idLength + sizeLength
        let allOnes: UInt64 = sizeLength == 8 ? (1 << 56) - 1 : (1 << (7 * UInt64(sizeLength))) - 1
        if size == allOnes {
            return EBMLElement(id: UInt32(id), start: offset, data: dataStart..<end, hasUnknownSize: true)
        }
        if cutAtFileEnd, end == bytes.count, size > UInt64(end - dataStart) {
            return EBMLElement(id: UInt32(id), start: offset, data: dataStart..<end, hasUnknownSize: false, isCut: true)
        }
        guard size <= UInt64(end - dataStart) else {
            throw overrun("element \(hexID(id)) declares \(size) bytes at offset \(dataStart)", parentEnd: end)
        }
        return EBMLElement(
            id: UInt32(id), start: offset, data: dataStart..<dataStart + Int(size), hasUnknownSize: false)
    }

    /// The children of `parent`, in order. Reading stops at the first malformed child.
    func children(of parent: EBMLElement) throws(CodecError) -> [EBMLElement] {
        var children: [EBMLElement] = []
        var offset = parent.data.lowerBound
        while offset < parent.data.upperBound {
            let child = try element(at: offset, end: parent.data.upperBound)
            children.append(child)
            offset = child.data.upperBound
        }
        return children
    }

    /// An unsigned integer element (0 to 8 bytes, big-endian; an empty one is 0).
    func unsigned(_ element: EBMLElement) throws(CodecError) -> UInt64 {
        guard element.data.count <= 8 else {
            throw .malformed(
                format: .webm,
                reason: "integer element \(hexID(UInt64(element.id))) is \(element.data.count) bytes long")
        }
        return bytes[element.data].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A float element (4 or 8 bytes, big-endian IEEE 754; an empty one is 0).
    func float(_ element: EBMLElement) throws(CodecError) -> Double {
        let bits = try unsigned(element)
        switch element.data.count {
        case 0: return 0
        case 4: return Double(Float(bitPattern: UInt32(bits)))
        case 8: return Double(bitPattern: bits)
        default:
            throw .malformed(
                format: .webm, reason: "float element \(hexID(UInt64(element.id))) is \(element.data.count) bytes long")
        }
    }

    /// A string element (ASCII or UTF-8, padded with zeros).
    func string(_ element: EBMLElement) -> String {
        let text = bytes[element.data].prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// An EBML variable-length integer at `offset`: the count of leading zero bits of its first
    /// byte gives its length. IDs keep the marker bit; sizes and track numbers drop it.
    func variableInteger(
        at offset: Int, end: Int, maxLength: Int, what: String,
        keepMarker: Bool
    ) throws(CodecError) -> (value: UInt64, length: Int) {
        guard offset < end else { throw overrun("\(what) at offset \(offset)", parentEnd: end) }
        let first = bytes[offset]
        guard first != 0 else {
            throw .malformed(format: .webm, reason: "\(what) at offset \(offset) is longer than 8 bytes")
        }
        let length = first.leadingZeroBitCount + 1
        guard length <= maxLength else {
            throw .malformed(
                format: .webm, reason: "\(what) at offset \(offset) is \(length) bytes long, more than \(maxLength)")
        }
        guard length <= end - offset else { throw overrun("\(what) at offset \(offset)", parentEnd: end) }
        var value = UInt64(keepMarker ? first : first & (0xFF >> length))
        for index in 1..<length { value = value << 8 | UInt64(bytes[offset + index]) }
        return (value, length)
    }

    /// Running past the file's end is truncation; past a parent that ends sooner, a lie.
    private func overrun(_ what: String, parentEnd: Int) -> CodecError {
        parentEnd == bytes.count
            ? .truncated(context: "\(what) runs past the end of the file (\(bytes.count) bytes)")
            : .malformed(format: .webm, reason: "\(what) runs past the end of its parent element (offset \(parentEnd))")
    }
}

/// `0x1A45DFA3`-style hexadecimal, as Matroska's specification names IDs.
func hexID<Value: BinaryInteger>(_ value: Value) -> String {
    "0x" + String(value, radix: 16, uppercase: true)
}
