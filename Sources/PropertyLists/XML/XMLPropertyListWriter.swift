//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes ``PropertyListValue``s as XML property lists, byte for byte as Foundation's
/// `PropertyListSerialization` (CoreFoundation) writes them.
///
/// The output has the standard prolog, one tab of indentation per level, dictionary keys sorted by
/// UTF-16 code units, `&`, `<` and `>` escaped in text, reals as C's `%.17g`, dates in whole UTC
/// seconds (rounded down), and Base64 data in lines whose length shrinks with depth. A
/// ``PropertyListValue/uid(_:)``, which Foundation cannot write, becomes the
/// `<dict><key>CF$UID</key><integer>N</integer></dict>` that CoreFoundation's keyed archiver writes.
///
/// ```swift
/// let xml = XMLPropertyListWriter().write(["name": "Tom", "lives": 9])
/// ```
public struct XMLPropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Writes a whole XML property list.
    ///
    /// - Parameter value: The top-level value.
    /// - Returns: The document, in UTF-8.
    /// - Complexity: O(*n* log *n*) in the size of the value; dictionary keys are sorted.
    public func write(_ value: PropertyListValue) -> [UInt8] {
        var emitter = XMLPlistEmitter()
        emitter.output.reserveCapacity(1024)
        emitter.emitDocument(value)
        return emitter.output
    }

    /// Writes a whole XML property list in chunks, so the document never sits in memory at once.
    ///
    /// The bytes passed to `sink`, in order, are exactly those ``write(_:)`` returns.
    /// - Parameters:
    ///   - value: The top-level value.
    ///   - chunkSize: About how many bytes to collect before calling `sink`. Defaults to 1 MiB.
    ///   - sink: Receives each chunk; writing stops at its first error.
    /// - Throws: The first error `sink` throws.
    public func write(_ value: PropertyListValue, chunkSize: Int = 1 << 20, to sink: ([UInt8]) throws -> Void) throws {
        var firstError: (any Error)?
        withoutActuallyEscaping(sink) { sink in
            var emitter = XMLPlistEmitter()
            emitter.chunkSize = max(chunkSize, 1)
            emitter.output.reserveCapacity(min(emitter.chunkSize, 1 << 24) + 4096)
            emitter.flush = { chunk in
                guard firstError == nil else { return }
                do { try sink(chunk) } catch { firstError = error }
            }
            emitter.emitDocument(value)
            emitter.flushNow()
        }
        if let firstError { throw firstError }
    }
}

/// The output buffer of one ``XMLPropertyListWriter/write(_:)`` call.
internal struct XMLPlistEmitter {
    var output: [UInt8] = []
    /// Where chunks go when writing in chunks; `nil` collects the whole document in ``output``.
    var flush: (([UInt8]) -> Void)?
    var chunkSize = Int.max
    /// The positions of the entries of the dictionaries being written, innermost last, each run
    /// sorted by key (see ``appendSorted(_:to:key:)``).
    var keyOrder: [Int] = []

    mutating func emitDocument(_ value: PropertyListValue) {
        self.appendHeader()
        self.emit(value, depth: 0)
        self.append("</plist>\n")
    }

    /// Appends the XML declaration, the DOCTYPE and the opening `plist` tag.
    mutating func appendHeader() {
        self.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        )
    }

    /// Hands the collected bytes to ``flush`` once there are ``chunkSize`` of them.
    @inline(__always)
    mutating func flushIfFull() {
        if self.output.count >= self.chunkSize { self.flushNow() }
    }

    mutating func flushNow() {
        guard let flush, !self.output.isEmpty else { return }
        flush(self.output)
        self.output.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        self.output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func indent(_ depth: Int) {
        for _ in 0..<depth {
            self.output.append(0x09)
        }
    }

    mutating func emit(_ value: PropertyListValue, depth: Int) {
        self.indent(depth)
        switch value {
        case .string(let string):
            self.append("<string>")
            self.appendEscaped(string)
            self.append("</string>\n")
        case .integer(let number):
            self.append("<integer>")
            if let negative = number.int64Value, negative < 0 {
                self.output.append(UInt8(ascii: "-"))
                XMLRealFormatter.appendDecimal(negative.magnitude, to: &self.output)
            } else {
                XMLRealFormatter.appendDecimal(number.uint64Value ?? 0, to: &self.output)
            }
            self.append("</integer>\n")
        case .real(let number):
            self.append("<real>")
            XMLRealFormatter.append(number, to: &self.output)
            self.append("</real>\n")
        case .float(let number):
            self.append("<real>")
            XMLRealFormatter.append(Double(number), to: &self.output)
            self.append("</real>\n")
        case .bool(let flag):
            if flag { self.append("<true/>\n") } else { self.append("<false/>\n") }
        case .date(let date):
            self.append("<date>")
            self.appendDate(date.timeIntervalSinceReferenceDate)
            self.append("</date>\n")
        case .data(let data):
            self.append("<data>\n")
            data.withUnsafeBytes { XMLBase64.appendLines($0, depth: depth, to: &self.output) }
            self.indent(depth)
            self.append("</data>\n")
        case .array(let elements):
            guard !elements.isEmpty else {
                self.append("<array/>\n")
                return
            }
            self.append("<array>\n")
            for element in elements {
                self.emit(element, depth: depth + 1)
                self.flushIfFull()
            }
            self.indent(depth)
            self.append("</array>\n")
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else {
                self.append("<dict/>\n")
                return
            }
            self.append("<dict>\n")
            let slots = Self.appendSorted(dictionary.indices, to: &self.keyOrder) { dictionary[$0].key }
            for slot in slots {
                let entry = dictionary[self.keyOrder[slot]]
                self.indent(depth + 1)
                self.append("<key>")
                self.appendEscaped(entry.key)
                self.append("</key>\n")
                self.emit(entry.value, depth: depth + 1)
                self.flushIfFull()
            }
            self.keyOrder.removeSubrange(slots)
            self.indent(depth)
            self.append("</dict>\n")
        case .uid(let uid):
            self.append("<dict>\n")
            self.indent(depth + 1)
            self.append("<key>CF$UID</key>\n")
            self.indent(depth + 1)
            self.append("<integer>")
            XMLRealFormatter.appendDecimal(uid.rawValue, to: &self.output)
            self.append("</integer>\n")
            self.indent(depth)
            self.append("</dict>\n")
        }
    }

    /// Appends `string` as UTF-8 with `&`, `<` and `>` escaped; everything else is written as is.
    mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") else {
                    continue
                }
                self.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                switch byte {
                case UInt8(ascii: "<"): self.append("&lt;")
                case UInt8(ascii: ">"): self.append("&gt;")
                default: self.append("&amp;")
                }
                runStart = index + 1
            }
            self.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// Appends CoreFoundation's `%04d-%02d-%02dT%02d:%02d:%02dZ` for `time`.
    mutating func appendDate(_ time: Double) {
        let fields = XMLGregorianCalendar.coreFoundationFields(time)
        self.appendPadded(fields.year, width: 4)
        self.output.append(UInt8(ascii: "-"))
        self.appendPadded(fields.month, width: 2)
        self.output.append(UInt8(ascii: "-"))
        self.appendPadded(fields.day, width: 2)
        self.output.append(UInt8(ascii: "T"))
        self.appendPadded(fields.hour, width: 2)
        self.output.append(UInt8(ascii: ":"))
        self.appendPadded(fields.minute, width: 2)
        self.output.append(UInt8(ascii: ":"))
        self.appendPadded(fields.second, width: 2)
        self.output.append(UInt8(ascii: "Z"))
    }

    /// Appends `value` as `printf("%0*d", width, value)` does: zero-padded to `width` characters,
    /// sign included.
    private mutating func appendPadded(_ value: Int32, width: Int) {
        let magnitude = UInt64(value.magnitude)
        var digitCount = 1
        var probe = magnitude
        while probe >= 10 {
            digitCount += 1
            probe /= 10
        }
        if value < 0 { self.output.append(UInt8(ascii: "-")) }
        let padding = width - digitCount - (value < 0 ? 1 : 0)
        if padding > 0 { self.output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: padding)) }
        XMLRealFormatter.appendDecimal(magnitude, to: &self.output)
    }

    /// Appends the positions of a dictionary's entries to `order`, sorted by their keys in
    /// CoreFoundation's order (`CFStringCompare` with no options, which compares UTF-16 code units),
    /// and returns where they are in `order`. The caller removes them when it is done: a stack of
    /// runs serves nested dictionaries without an array each.
    static func appendSorted(
        _ positions: Range<Int>,
        to order: inout [Int],
        key: (Int) -> String
    ) -> Range<Int> {
        let start = order.count
        order.append(contentsOf: positions)
        if positions.count > 1 {
            // In the list's own memory: sorting the slice `order[start...]` copied it.
            order.withUnsafeMutableBufferPointer { buffer in
                var run = UnsafeMutableBufferPointer(rebasing: buffer[start...])
                run.sort { Self.precedesInUTF16Order(key($0), key($1)) }
            }
        }
        return start..<order.count
    }

    /// Whether `lhs` sorts before `rhs` by UTF-16 code units.
    ///
    /// UTF-8 byte order equals scalar order, which differs from UTF-16 order only between a
    /// supplementary scalar (4-byte UTF-8, a surrogate pair in UTF-16) and one in U+E000...U+FFFF;
    /// that case is decided by the lead bytes of the first differing scalar.
    static func precedesInUTF16Order(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                var index = 0
                while index < common, left[index] == right[index] {
                    index += 1
                }
                guard index < common else { return left.count < right.count }
                var scalarStart = index
                while scalarStart > 0, left[scalarStart] & 0xC0 == 0x80 {
                    scalarStart -= 1
                }
                let leftLead = left[scalarStart]
                let rightLead = right[scalarStart]
                if leftLead >= 0xF0, rightLead == 0xEE || rightLead == 0xEF { return true }
                if rightLead >= 0xF0, leftLead == 0xEE || leftLead == 0xEF { return false }
                return left[index] < right[index]
            }
        }
    }
}
