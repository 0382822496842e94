//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import PropertyLists

extension BenchmarkInputs {
    /// Prints, to standard error, each input's sizes and whether the two implementations agree on it:
    /// that our reader reads Foundation's bytes to our tree, that Foundation reads our writer's bytes
    /// to its tree, and whether the two writers produce identical bytes.
    ///
    /// Set `PLIST_BENCH_VERIFY=1` to run it; it is not part of any measurement.
    static func verify() {
        let inputs = [
            Self.records(.binary), Self.records(.xml),
            Self.runningProcesses(.binary), Self.runningProcesses(.xml),
        ]
        for input in inputs {
            let ourBytes = input.ours.serialized(as: input.format)
            let foundationBytes = try? PropertyListSerialization.data(
                fromPropertyList: input.foundation,
                format: input.foundationFormat,
                options: 0
            )

            let oursReadsInput: String
            do {
                let value = try PropertyListValue(parsing: input.bytes)
                oursReadsInput = value == input.ours ? "equal tree" : "DIFFERENT tree"
            } catch {
                oursReadsInput = "FAILED: \(error)"
            }

            let foundationReadsOurs: String
            do {
                let tree = try PropertyListSerialization.propertyList(from: ourBytes, format: nil)
                foundationReadsOurs = Self.foundationEqual(tree, input.foundation) ? "equal tree" : "DIFFERENT tree"
            } catch {
                foundationReadsOurs = "FAILED: \(error)"
            }

            Self.report(
                """
                \(input.name): input \(input.bytes.count) bytes; \
                ours writes \(ourBytes.count) bytes, Foundation writes \(foundationBytes?.count ?? -1) bytes \
                (\(ourBytes == foundationBytes ? "identical" : "differ")); \
                ours reads input: \(oursReadsInput); Foundation reads ours: \(foundationReadsOurs)
                """
            )
        }
    }

    /// Compares two `Any` trees by Foundation's XML encoding of each, which sorts dictionary keys and
    /// tells a Boolean from an integer. (`isEqual` does not do: swift-corelibs-foundation compares
    /// keyed-archive UIDs by identity, so two readings of the same bytes differ.)
    private static func foundationEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        let lhs = try? PropertyListSerialization.data(fromPropertyList: lhs, format: .xml, options: 0)
        let rhs = try? PropertyListSerialization.data(fromPropertyList: rhs, format: .xml, options: 0)
        return lhs != nil && lhs == rhs
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("[verify] \(line)\n".utf8))
    }
}
