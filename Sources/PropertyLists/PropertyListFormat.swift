//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The encodings of a property list this package reads and writes.
public enum PropertyListFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Apple's binary format, `bplist00`.
    case binary
    /// The XML 1.0 format with Apple's `PropertyList-1.0.dtd` document type.
    case xml

    /// Detects the encoding of a property list from its first bytes.
    ///
    /// Binary property lists start with `bplist00`. Anything that, after an optional UTF-8 byte order
    /// mark and white space, starts with `<` is taken to be XML; the XML reader decides whether it is
    /// a property list.
    /// - Parameter bytes: The start of the property list; a few dozen bytes are enough.
    /// - Returns: The format, or `nil` if the bytes look like neither.
    public init?(detecting bytes: some Collection<UInt8>) {
        // Contiguous bytes (`Data`, arrays) are read through a buffer: the generic collection
        // methods cost thousands of instructions through a caller in another module.
        let detected: PropertyListFormat?
        if let found = bytes.withContiguousStorageIfAvailable({ Self.detectedFormat($0) }) {
            detected = found
        } else {
            detected = Self.detectedFormat(bytes)
        }
        guard let detected else { return nil }
        self = detected
    }

    private static func detectedFormat(_ bytes: some Collection<UInt8>) -> PropertyListFormat? {
        if bytes.starts(with: BinaryPropertyListMagic.header) { return .binary }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard let first = rest.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            return nil
        }
        return first == UInt8(ascii: "<") ? .xml : nil
    }

    /// The name of the format: `binary` or `xml`.
    public var description: String { self.rawValue }
}

/// The constants of the `bplist00` container.
package enum BinaryPropertyListMagic {
    /// The eight-byte header, `bplist00`.
    package static let header: [UInt8] = Array("bplist00".utf8)
    /// The size of the trailer at the end of the file.
    package static let trailerSize = 32
}
