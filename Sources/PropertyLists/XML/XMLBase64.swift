//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Base64 (RFC 4648, standard alphabet) as `<data>` elements use it.
enum XMLBase64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Sextet values by byte; 0xFF marks a byte outside the alphabet.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in Self.alphabet.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The most bytes `encodedLength` characters of Base64 can decode to.
    static func maximumDecodedCount(encodedLength: Int) -> Int {
        encodedLength / 4 * 3 + 3
    }

    /// Decodes `text`, skipping XML white space. Padding is optional, but after a `=` only `=`
    /// and white space may follow.
    /// - Parameters:
    ///   - text: The element's content.
    ///   - output: Room for at least ``maximumDecodedCount(encodedLength:)`` bytes.
    /// - Returns: The number of bytes written, or the offset in `text` of the first byte that is
    ///   not valid Base64 as `.failure`.
    static func decode(
        _ text: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableRawBufferPointer
    ) -> Result<Int, InvalidByte> {
        Self.sextets.withUnsafeBufferPointer { sextets in
            var written = 0
            var accumulator: UInt32 = 0
            var pending = 0
            var padding = 0
            var index = 0
            let count = text.count
            while index < count {
                // Fast path: four alphabet characters starting a group. 0xFF marks the others.
                if pending == 0, padding == 0, count &- index >= 4 {
                    let first = sextets[Int(text[index])]
                    let second = sextets[Int(text[index &+ 1])]
                    let third = sextets[Int(text[index &+ 2])]
                    let fourth = sextets[Int(text[index &+ 3])]
                    if (first | second | third | fourth) & 0xC0 == 0 {
                        let group =
                            UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                        output[written] = UInt8(truncatingIfNeeded: group >> 16)
                        output[written &+ 1] = UInt8(truncatingIfNeeded: group >> 8)
                        output[written &+ 2] = UInt8(truncatingIfNeeded: group)
                        written &+= 3
                        index &+= 4
                        continue
                    }
                }
                let byte = text[index]
                let value = sextets[Int(byte)]
                if value != 0xFF, padding == 0 {
                    accumulator = accumulator << 6 | UInt32(value)
                    pending += 1
                    if pending == 4 {
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                        output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                        output[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                        written += 3
                        accumulator = 0
                        pending = 0
                    }
                } else if byte == UInt8(ascii: "="), pending >= 2, pending + padding < 4 {
                    padding += 1
                } else if !XMLScanner.isWhitespace(byte) {
                    return .failure(InvalidByte(offset: index))
                }
                index &+= 1
            }
            switch pending {
            case 0:
                break
            case 2:
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
                written += 1
            case 3:
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                written += 2
            default:
                return .failure(InvalidByte(offset: count))
            }
            return .success(written)
        }
    }

    /// The position of a byte that is not valid Base64.
    struct InvalidByte: Error {
        var offset: Int
    }

    /// Appends `bytes` as CoreFoundation's XML writer does: lines of `76 - 8 × min(depth, 8)`
    /// characters, each indented by `min(depth, 8)` tabs and ended by a newline.
    static func appendLines(_ bytes: UnsafeRawBufferPointer, depth: Int, to output: inout [UInt8]) {
        let indentation = min(depth, 8)
        let lineLength = 76 - 8 * indentation
        let bytesPerLine = lineLength / 4 * 3
        let count = bytes.count
        output.reserveCapacity(output.count + (count + 2) / 3 * 4 + (count / bytesPerLine + 1) * (indentation + 1))
        Self.alphabet.withUnsafeBufferPointer { alphabet in
            var start = 0
            while start < count {
                let end = min(start + bytesPerLine, count)
                for _ in 0..<indentation { output.append(0x09) }
                var index = start
                while index + 3 <= end {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(alphabet[Int(group >> 6 & 0x3F)])
                    output.append(alphabet[Int(group & 0x3F)])
                    index += 3
                }
                switch end - index {
                case 1:
                    let group = UInt32(bytes[index]) << 16
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(UInt8(ascii: "="))
                    output.append(UInt8(ascii: "="))
                case 2:
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                    output.append(alphabet[Int(group >> 18)])
                    output.append(alphabet[Int(group >> 12 & 0x3F)])
                    output.append(alphabet[Int(group >> 6 & 0x3F)])
                    output.append(UInt8(ascii: "="))
                default:
                    break
                }
                output.append(0x0A)
                start = end
            }
        }
    }
}
