//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where the numbering of a ``BinaryPropertyListBuilder`` writes objects: a buffer allocated at the
/// file's final size (``BinaryBufferOutput``), or chunks handed over as they fill (``BinaryOutput``).
internal protocol BinaryObjectOutput {
    /// The offset in the file of the next byte appended.
    var position: Int { get }
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends bytes.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    /// Appends the low `width` bytes of `value`, most significant first.
    mutating func appendBigEndian(_ value: UInt64, width: Int)
    /// Appends a run of references or offsets, each in `width` bytes, most significant first.
    mutating func appendBigEndian<T: FixedWidthInteger>(contentsOf values: UnsafeBufferPointer<T>, width: Int)
    /// Appends a marker whose low nibble is the count, or 0xF followed by an integer object.
    mutating func appendMarker(_ marker: UInt8, count: Int)
    /// Appends a non-negative integer object in the fewest of 1, 2, 4 or 8 bytes.
    mutating func appendUnsigned(_ value: UInt64)
}

/// Bytes written into a buffer allocated at its final size.
internal struct BinaryBufferOutput: BinaryObjectOutput {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// The offset in the file of the next byte appended.
    var position: Int { self.count }

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        // The buffer is sized from an upper bound of the file, so this never fails.
        guard self.count < self.buffer.count else { return }
        self.buffer[self.count] = byte
        self.count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty, self.count + bytes.count <= self.buffer.count else {
            return
        }
        let target = UnsafeMutableBufferPointer(rebasing: self.buffer[self.count..<(self.count + bytes.count)])
        target.baseAddress?.update(from: base, count: bytes.count)
        self.count += bytes.count
    }

    /// Appends the low `width` bytes of `value`, most significant first.
    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        guard width > 0, self.count + width <= self.buffer.count, let base = self.buffer.baseAddress else { return }
        let target = UnsafeMutableRawPointer(base + self.count)
        switch width {
        case 1:
            target.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2:
            target.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4:
            target.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
        case 8:
            target.storeBytes(of: value.bigEndian, as: UInt64.self)
        default:
            var shift = UInt64(truncatingIfNeeded: (width - 1) * 8)
            for index in 0..<width {
                target.storeBytes(of: UInt8(truncatingIfNeeded: value &>> shift), toByteOffset: index, as: UInt8.self)
                shift &-= 8
            }
        }
        self.count += width
    }

    /// Appends a run of references or offsets, each in `width` bytes, most significant first.
    @inline(__always)
    mutating func appendBigEndian<T: FixedWidthInteger>(contentsOf values: UnsafeBufferPointer<T>, width: Int) {
        let size = values.count * width
        guard width > 0, self.count + size <= self.buffer.count, let base = self.buffer.baseAddress else { return }
        var target = base + self.count
        switch width {
        case 1:
            for value in values {
                target.pointee = UInt8(truncatingIfNeeded: value)
                target += 1
            }
        case 2:
            for value in values {
                target[0] = UInt8(truncatingIfNeeded: value &>> 8)
                target[1] = UInt8(truncatingIfNeeded: value)
                target += 2
            }
        case 4:
            // One unaligned store per value rather than four byte stores.
            let raw = UnsafeMutableRawPointer(target)
            for (index, value) in values.enumerated() {
                raw.storeBytes(
                    of: UInt32(truncatingIfNeeded: value).bigEndian,
                    toByteOffset: 4 * index,
                    as: UInt32.self
                )
            }
        default:
            for value in values {
                let wide = UInt64(truncatingIfNeeded: value)
                var shift = UInt64(truncatingIfNeeded: (width - 1) * 8)
                for index in 0..<width {
                    target[index] = UInt8(truncatingIfNeeded: wide &>> shift)
                    shift &-= 8
                }
                target += width
            }
        }
        self.count += size
    }

    /// Appends a marker whose low nibble is the count, or 0xF followed by an integer object.
    @inline(__always)
    mutating func appendMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            self.append(marker | UInt8(count))
        } else {
            self.append(marker | 0x0F)
            self.appendUnsigned(UInt64(count))
        }
    }

    /// Appends a non-negative integer object in the fewest of 1, 2, 4 or 8 bytes (16 above `Int64.max`).
    mutating func appendUnsigned(_ value: UInt64) {
        if value > UInt64(Int64.max) {
            self.append(0x14)
            self.appendBigEndian(0, width: 8)
            self.appendBigEndian(value, width: 8)
            return
        }
        let width = BinaryOutput.width(forMaximum: value)
        self.append(0x10 | UInt8(width.trailingZeroBitCount))
        self.appendBigEndian(value, width: width)
    }
}
