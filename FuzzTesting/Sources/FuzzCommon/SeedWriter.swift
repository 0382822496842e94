//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
import KeyedArchiving
import PropertyLists

/// Writes the seed corpus of a `FUZZ_MAKE_SEEDS` run.
public enum SeedWriter {
    /// Writes each sample as a binary and an XML archive, `<prefix>-<index>-<binary|xml>.archive`,
    /// into `directory`, and checks that each decodes back to its sample: a seed that does not
    /// would start the corpus from nothing useful.
    /// - Throws: an encoding, decoding or file error, or ``Mismatch`` for a seed that does not
    ///   decode back.
    public static func writeArchives<Value: Codable & Equatable>(
        of samples: [Value],
        prefix: String,
        into directory: String
    ) throws {
        var encoder = KeyedArchiveEncoder()
        for (index, sample) in samples.enumerated() {
            for format in [PropertyListFormat.binary, .xml] {
                encoder.outputFormat = format
                let name = "\(prefix)-\(index)-\(format == .binary ? "binary" : "xml").archive"
                let url = try self.write(encoder.encode(sample), named: name, into: directory)
                guard try KeyedArchiveDecoder().decode(Value.self, from: Data(contentsOf: url)) == sample else {
                    throw Mismatch(name: name)
                }
            }
        }
    }

    /// Writes `data` as `name` into `directory`, says so, and returns its URL.
    @discardableResult
    public static func write(_ data: Data, named name: String, into directory: String) throws -> URL {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        try data.write(to: url)
        print("wrote \(url.path)")
        return url
    }

    /// A seed that does not decode back to its sample.
    public struct Mismatch: Error, CustomStringConvertible {
        /// The seed's file name.
        public var name: String

        public var description: String { "\(self.name) does not decode back to its sample" }
    }
}
