//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The decoded marker of one binary object: its kind, and for variable-length objects where the
/// payload starts and how many elements it holds. Every field has been bounds-checked against the
/// object area.
///
/// This is the one place that knows the `bplist00` object markers: readers go through
/// ``InPlaceReader``, which decodes each object with these initializers and the quick forms below.
internal struct ObjectHeader {
    enum Kind {
        case bool(Bool)
        case integer(PropertyListInteger)
        case real(Double)
        case float(Float)
        case date(Double)
        case uid(UInt64)
        case data
        case asciiString
        case utf16String
        case array
        case dictionary
    }

    var kind: Kind
    /// The offset of the first payload byte (variable-length kinds only).
    var payload: Int = 0
    /// The element count: bytes, characters, or entries.
    var count: Int = 0

    /// Creates a header whose fields a caller has decoded and checked itself.
    @inline(__always)
    init(kind: Kind, payload: Int, count: Int) {
        self.kind = kind
        self.payload = payload
        self.count = count
    }

    /// Decodes the markers writers use for all but long or unusual objects: Booleans, integers of
    /// up to eight bytes, 64-bit reals, finite dates, UIDs, and data, strings and containers whose
    /// count is in the marker or in a one-byte integer after it. `nil` for any other object, and for
    /// one that fails a check, which the throwing initializer then decodes or reports: the checks
    /// are the throwing initializer's.
    @inline(__always)
    init?(common bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int, referenceSize: Int) {
        let marker = bytes[offset]
        let available = end &- offset &- 1
        let elementSize: Int
        let kind: Kind
        switch marker >> 4 {
        case 0x0:
            guard marker == 0x08 || marker == 0x09 else { return nil }
            self.init(kind: .bool(marker == 0x09), payload: 0, count: 0)
            return
        case 0x1:
            let width = 1 << Int(marker & 0x0F)
            guard width <= 8, width <= available else { return nil }
            let raw = Self.bigEndian(bytes, at: offset &+ 1, width: width)
            // Eight-byte integers are signed, shorter ones unsigned.
            let value = width == 8 ? PropertyListInteger(Int64(bitPattern: raw)) : PropertyListInteger(raw)
            self.init(kind: .integer(value), payload: 0, count: 0)
            return
        case 0x2, 0x3:
            guard marker == 0x23 || marker == 0x33, available >= 8 else { return nil }
            let value = Double(bitPattern: Self.bigEndian(bytes, at: offset &+ 1, width: 8))
            if marker == 0x23 {
                self.init(kind: .real(value), payload: 0, count: 0)
            } else {
                guard value.isFinite else { return nil }
                self.init(kind: .date(value), payload: 0, count: 0)
            }
            return
        case 0x8:
            guard let uid = Self.uid(bytes, at: offset, end: end) else { return nil }
            self.init(kind: .uid(uid), payload: 0, count: 0)
            return
        case 0x4:
            kind = .data
            elementSize = 1
        case 0x5:
            kind = .asciiString
            elementSize = 1
        case 0x6:
            kind = .utf16String
            elementSize = 2
        case 0xA:
            kind = .array
            elementSize = referenceSize
        case 0xD:
            kind = .dictionary
            elementSize = 2 &* referenceSize
        default:
            return nil
        }
        var payload = offset &+ 1
        var count = Int(marker & 0x0F)
        if count == 0x0F {
            guard end &- payload >= 2, bytes[payload] == 0x10 else { return nil }
            count = Int(bytes[payload &+ 1])
            payload &+= 2
        }
        guard count <= (end &- payload) / elementSize else { return nil }
        self.init(kind: kind, payload: payload, count: count)
    }

    /// The value of the UID at `offset`, or `nil` if the object there is not one that fits before
    /// `end` (which the throwing initializer then reports).
    @inline(__always)
    static func uid(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) -> UInt64? {
        let marker = bytes[offset]
        // 0x80...0x87: a UID of 1 to 8 bytes.
        guard marker & 0xF8 == 0x80 else { return nil }
        let width = Int(marker & 0x07) &+ 1
        guard width <= end &- offset &- 1 else { return nil }
        return Self.bigEndian(bytes, at: offset &+ 1, width: width)
    }

    /// The length of the ASCII string at `offset` when its marker holds it (up to 14 bytes) and it
    /// fits before `end`; `nil` for any other object.
    @inline(__always)
    static func shortASCIILength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) -> Int? {
        let marker = bytes[offset]
        guard marker >> 4 == 0x5, marker & 0x0F != 0x0F else { return nil }
        let count = Int(marker & 0x0F)
        guard count <= end &- offset &- 1 else { return nil }
        return count
    }

    /// Whether the object at `offset` is a dictionary of two entries whose references fit before
    /// `end`, as a Foundation object with one field has (the field and `$class`).
    @inline(__always)
    static func isPair(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int, referenceSize: Int) -> Bool {
        bytes[offset] == 0xD2 && 4 &* referenceSize <= end &- offset &- 1
    }

    /// Decodes the marker at `offset`, checking that the whole object lies before `end`.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int, referenceSize: Int) throws(PropertyListError) {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: self.kind = .bool(false)
            case 0x09: self.kind = .bool(true)
            default: throw Self.badMarker(marker, at: offset)
            }
        case 0x1:
            guard low <= 4 else { throw Self.badMarker(marker, at: offset) }
            let width = 1 << low
            try Self.require(width, from: offset + 1, end: end, object: offset)
            self.kind = .integer(try Self.integer(bytes, at: offset + 1, width: width))
        case 0x2:
            switch low {
            case 2:
                try Self.require(4, from: offset + 1, end: end, object: offset)
                self.kind = .float(Float(bitPattern: UInt32(Self.bigEndian(bytes, at: offset + 1, width: 4))))
            case 3:
                try Self.require(8, from: offset + 1, end: end, object: offset)
                self.kind = .real(Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8)))
            default: throw Self.badMarker(marker, at: offset)
            }
        case 0x3:
            guard marker == 0x33 else { throw Self.badMarker(marker, at: offset) }
            try Self.require(8, from: offset + 1, end: end, object: offset)
            let seconds = Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8))
            // No calendar holds a NaN or infinite instant; CoreFoundation's writers never produce one.
            guard seconds.isFinite else {
                throw PropertyListError(.invalidDate, offset: offset, reason: "date \(seconds) is not finite")
            }
            self.kind = .date(seconds)
        case 0x8:
            let width = low + 1
            guard width <= 8 else {
                throw PropertyListError(.invalidUID, offset: offset, reason: "UID of \(width) bytes")
            }
            try Self.require(width, from: offset + 1, end: end, object: offset)
            self.kind = .uid(Self.bigEndian(bytes, at: offset + 1, width: width))
        case 0x4:
            self.kind = .data
            try self.readCount(bytes, marker: marker, at: offset, end: end, elementSize: 1)
        case 0x5:
            self.kind = .asciiString
            try self.readCount(bytes, marker: marker, at: offset, end: end, elementSize: 1)
        case 0x6:
            self.kind = .utf16String
            try self.readCount(bytes, marker: marker, at: offset, end: end, elementSize: 2)
        case 0xA:
            self.kind = .array
            try self.readCount(bytes, marker: marker, at: offset, end: end, elementSize: referenceSize)
        case 0xD:
            self.kind = .dictionary
            try self.readCount(bytes, marker: marker, at: offset, end: end, elementSize: 2 * referenceSize)
        default:
            throw Self.badMarker(marker, at: offset)
        }
    }

    /// Reads the element count from the marker's low nibble or the integer object after it, and
    /// checks that `count * elementSize` payload bytes fit before `end`.
    @inline(__always)
    private mutating func readCount(
        _ bytes: UnsafeBufferPointer<UInt8>,
        marker: UInt8,
        at offset: Int,
        end: Int,
        elementSize: Int
    ) throws(PropertyListError) {
        var payload = offset + 1
        var count = Int(marker & 0x0F)
        if count == 0x0F {
            try Self.require(1, from: payload, end: end, object: offset)
            let countMarker = bytes[payload]
            guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else {
                throw PropertyListError(
                    .invalidLength,
                    offset: payload,
                    reason: String(format16: countMarker, prefix: "count marker 0x")
                )
            }
            let width = 1 << Int(countMarker & 0x0F)
            try Self.require(width, from: payload + 1, end: end, object: offset)
            let raw = Self.bigEndian(bytes, at: payload + 1, width: width)
            guard raw <= UInt64(Int.max) else {
                throw PropertyListError(.invalidLength, offset: payload, reason: "count \(raw)")
            }
            count = Int(raw)
            payload += 1 + width
        }
        let available = end - payload
        guard count <= available / elementSize else {
            throw PropertyListError(
                .invalidLength,
                offset: offset,
                reason: "\(count) elements of \(elementSize) bytes exceed the \(available) bytes left"
            )
        }
        self.payload = payload
        self.count = count
    }

    @inline(__always)
    private static func require(_ size: Int, from start: Int, end: Int, object: Int) throws(PropertyListError) {
        guard size <= end - start else {
            throw PropertyListError(
                .truncated,
                offset: object,
                reason: "object needs \(size) bytes past \(start) but the object area ends at \(end)"
            )
        }
    }

    @inline(never)
    private static func badMarker(_ marker: UInt8, at offset: Int) -> PropertyListError {
        PropertyListError(.invalidMarker, offset: offset, reason: String(format16: marker, prefix: "marker 0x"))
    }

    /// Reads a big-endian unsigned integer of `width` (1...8) bytes; the caller has checked bounds.
    /// The widths offsets and references use read in one load.
    @inline(__always)
    static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        switch width {
        case 1: return UInt64(bytes[offset])
        case 2: return UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self).bigEndian)
        case 4: return UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian)
        case 8: return raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self).bigEndian
        default:
            var value: UInt64 = 0
            for index in offset..<(offset + width) {
                value = value << 8 | UInt64(bytes[index])
            }
            return value
        }
    }

    /// Decodes an integer payload: 1, 2 and 4 bytes unsigned, 8 bytes signed, 16 bytes signed 128-bit.
    private static func integer(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at offset: Int,
        width: Int
    ) throws(PropertyListError) -> PropertyListInteger {
        switch width {
        case 8:
            return PropertyListInteger(Int64(bitPattern: Self.bigEndian(bytes, at: offset, width: 8)))
        case 16:
            let high = Self.bigEndian(bytes, at: offset, width: 8)
            let low = Self.bigEndian(bytes, at: offset + 8, width: 8)
            if high == 0 { return PropertyListInteger(low) }
            if high == .max, Int64(bitPattern: low) < 0 { return PropertyListInteger(Int64(bitPattern: low)) }
            throw PropertyListError(
                .invalidInteger,
                offset: offset - 1,
                reason: "128-bit integer outside Int64.min...UInt64.max"
            )
        default:
            return PropertyListInteger(Self.bigEndian(bytes, at: offset, width: width))
        }
    }

    /// Decodes string characters: ASCII bytes or UTF-16BE code units (unpaired surrogates become U+FFFD).
    static func decodeString(
        _ bytes: UnsafeBufferPointer<UInt8>,
        range: Range<Int>,
        isUTF16: Bool
    ) throws(PropertyListError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !isUTF16 {
            guard Self.isASCII(slice) else {
                throw PropertyListError(
                    .invalidString,
                    offset: range.lowerBound,
                    reason: "non-ASCII byte in an ASCII string"
                )
            }
            // Checked ASCII: copy the bytes in; the string's own check of them is a fast one.
            return String(unsafeUninitializedCapacity: slice.count) { utf8 in
                _ = utf8.initialize(fromContentsOf: slice)
                return slice.count
            }
        }
        return Self.transcodeUTF16BigEndian(slice)
    }

    /// Whether every byte is below 0x80, checked eight at a time.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            high |= UInt64(raw[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether the four UTF-16BE code units from unit `index` on are all below 0x80.
    @inline(__always)
    private static func areASCII(_ bytes: UnsafeBufferPointer<UInt8>, fourUnitsAt index: Int) -> Bool {
        // In memory order each unit is a high byte, which must be 0, then a low byte below 0x80.
        let word = UInt64(
            littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: 2 * index, as: UInt64.self)
        )
        return word & 0x80FF_80FF_80FF_80FF == 0
    }

    /// The number of UTF-8 bytes ``transcodeUTF16BigEndian(_:)`` writes for `bytes`.
    @inline(__always)
    private static func utf8Count(ofUTF16BigEndian bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let units = bytes.count / 2
        var count = 0
        var index = 0
        while index < units {
            if index + 4 <= units, Self.areASCII(bytes, fourUnitsAt: index) {
                count += 4
                index += 4
                continue
            }
            let unit = UInt32(bytes[2 * index]) << 8 | UInt32(bytes[2 * index + 1])
            index += 1
            if unit < 0x80 {
                count += 1
            } else if unit < 0x800 {
                count += 2
            } else if unit >= 0xD800, unit < 0xDC00, index < units,
                case let low = UInt32(bytes[2 * index]) << 8 | UInt32(bytes[2 * index + 1]), low >= 0xDC00, low < 0xE000
            {
                count += 4
                index += 1
            } else {
                // Other BMP scalars, and unpaired surrogates written as U+FFFD.
                count += 3
            }
        }
        return count
    }

    /// Builds a `String` straight from UTF-16BE bytes, writing UTF-8 into the string's own storage;
    /// an unpaired surrogate becomes U+FFFD.
    private static func transcodeUTF16BigEndian(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let units = bytes.count / 2
        // The exact length lets a short result take the small-string path, with no allocation.
        return String(unsafeUninitializedCapacity: Self.utf8Count(ofUTF16BigEndian: bytes)) { utf8 in
            var written = 0
            var index = 0
            @inline(__always) func unit(_ at: Int) -> UInt32 {
                UInt32(bytes[2 * at]) << 8 | UInt32(bytes[2 * at + 1])
            }
            while index < units {
                if index + 4 <= units, Self.areASCII(bytes, fourUnitsAt: index) {
                    // The low bytes of the four units are the four characters.
                    utf8[written] = bytes[2 * index + 1]
                    utf8[written + 1] = bytes[2 * index + 3]
                    utf8[written + 2] = bytes[2 * index + 5]
                    utf8[written + 3] = bytes[2 * index + 7]
                    written += 4
                    index += 4
                    continue
                }
                var scalar = unit(index)
                index += 1
                if scalar >= 0xD800, scalar < 0xE000 {
                    if scalar < 0xDC00, index < units, case let low = unit(index), low >= 0xDC00, low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 1
                    } else {
                        scalar = 0xFFFD
                    }
                }
                if scalar < 0x80 {
                    utf8[written] = UInt8(scalar)
                    written += 1
                } else if scalar < 0x800 {
                    utf8[written] = UInt8(0xC0 | scalar >> 6)
                    utf8[written + 1] = UInt8(0x80 | scalar & 0x3F)
                    written += 2
                } else if scalar < 0x10000 {
                    utf8[written] = UInt8(0xE0 | scalar >> 12)
                    utf8[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    utf8[written + 2] = UInt8(0x80 | scalar & 0x3F)
                    written += 3
                } else {
                    utf8[written] = UInt8(0xF0 | scalar >> 18)
                    utf8[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                    utf8[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    utf8[written + 3] = UInt8(0x80 | scalar & 0x3F)
                    written += 4
                }
            }
            return written
        }
    }
}

extension String {
    /// Two uppercase hex digits of `byte` after `prefix`.
    init(format16 byte: UInt8, prefix: String) {
        let digits = String(byte, radix: 16, uppercase: true)
        self = prefix + (digits.count == 1 ? "0" + digits : digits)
    }
}
