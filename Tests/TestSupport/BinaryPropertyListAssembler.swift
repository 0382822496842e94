//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Builds `bplist00` files object by object, for inputs no writer produces: shared containers,
/// broken markers, counts that do not fit.
public enum BinaryPropertyListAssembler {
    /// A file of the given raw objects.
    /// - Parameters:
    ///   - objects: Each object's bytes, marker first; references are indexes into `objects`,
    ///     `referenceSize` bytes each.
    ///   - top: The index of the top object.
    ///   - offsetSize: The width of offset-table entries; by default the smallest of 1 and 2 that fits.
    ///   - referenceSize: The width of object references the trailer declares. Defaults to 1.
    public static func assemble(
        _ objects: [[UInt8]],
        top: Int,
        offsetSize: Int? = nil,
        referenceSize: UInt8 = 1
    ) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        let offsetSize = offsetSize ?? (table < 256 ? 1 : 2)
        for offset in offsets {
            for shift in stride(from: 8 * (offsetSize - 1), through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: offset >> shift))
            }
        }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), referenceSize]
        bytes += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(top).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        return bytes
    }

    /// A property list of `levels` arrays, each holding the one below `width` times, over the
    /// string `leaf`: `width^levels` leaves from `levels + 1` objects ("billion laughs").
    public static func sharedArrays(levels: Int, width: Int) -> [UInt8] {
        precondition(levels < 255 && width < 15, "a test input out of this helper's range")
        var objects: [[UInt8]] = [[0x54] + Array("leaf".utf8)]
        for level in 1...levels {
            objects.append([0xA0 | UInt8(width)] + Array(repeating: UInt8(level - 1), count: width))
        }
        return Self.assemble(objects, top: levels)
    }
}
