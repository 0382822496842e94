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

/// One input, prepared once per process before any measurement.
///
/// Both parsers read the same `bytes`. Each writer writes its own implementation's tree of the same
/// content: ours from `ours`, Foundation from `foundation`, which is what its own parser made of `bytes`.
struct BenchmarkInput {
    /// The input's part of the benchmark name, such as `records10k.binary`.
    var name: String
    var format: PropertyListFormat
    /// The bytes both implementations parse: Foundation's encoding, or Apple's fixture file itself.
    var bytes: Data
    /// The tree our writer writes.
    var ours: PropertyListValue
    /// The tree `PropertyListSerialization` writes.
    var foundation: Any

    var foundationFormat: PropertyListSerialization.PropertyListFormat {
        self.format == .binary ? .binary : .xml
    }
}

extension PropertyListFormat {
    fileprivate var suffix: String { self == .binary ? "binary" : "xml" }
}

enum BenchmarkInputs {
    /// The number of generated records.
    static let recordCount = 10_000

    /// The generated records in both implementations' trees. Both trees come from the same `[Record]`,
    /// so neither depends on the other implementation's reader or writer.
    /// Built anew for each input rather than kept for the process, so that a process that only
    /// parses holds none of the trees (see `Benchmarks.swift`).
    static func records() -> (ours: PropertyListValue, foundation: [Any]) {
        let records = RecordGenerator.records(count: Self.recordCount)
        return (.array(records.map(\.propertyListValue)), records.map(\.foundationValue))
    }

    /// `records10k.binary` and `records10k.xml`: the generated records as Foundation encodes them.
    static func records(_ format: PropertyListFormat) -> BenchmarkInput {
        let foundationFormat: PropertyListSerialization.PropertyListFormat = format == .binary ? .binary : .xml
        let records = Self.records()
        let bytes = try! PropertyListSerialization.data(
            fromPropertyList: records.foundation,
            format: foundationFormat,
            options: 0
        )
        return BenchmarkInput(
            name: "records10k.\(format.suffix)",
            format: format,
            bytes: bytes,
            ours: records.ours,
            foundation: try! PropertyListSerialization.propertyList(from: bytes, format: nil)
        )
    }

    /// `records10k-ours.binary` and `records10k-ours.xml`: the same records as our writer encodes them,
    /// parsed by both implementations. (On Linux, Foundation's binary writer does not share equal
    /// values, so its bytes are larger than CoreFoundation's on Apple platforms or ours.)
    static func recordsOurs(_ format: PropertyListFormat) -> BenchmarkInput {
        let records = Self.records()
        let bytes = records.ours.serialized(as: format)
        return BenchmarkInput(
            name: "records10k-ours.\(format.suffix)",
            format: format,
            bytes: bytes,
            ours: records.ours,
            foundation: (try? PropertyListSerialization.propertyList(from: bytes, format: nil)) ?? [Any]()
        )
    }

    /// The largest Apple fixture, a 74 KB binary plist of running processes, read as shipped.
    static let runningProcessesBinary: Data = {
        let url = Bundle.module.url(
            forResource: "nsarray_runningprocesses",
            withExtension: "bplist",
            subdirectory: "Fixtures"
        )!
        return try! Data(contentsOf: url)
    }()

    /// `runningprocesses.binary` (the fixture's own bytes) and `runningprocesses.xml` (Foundation's
    /// XML conversion of it). Our tree is our reader's reading of the binary fixture in both cases.
    static func runningProcesses(_ format: PropertyListFormat) -> BenchmarkInput {
        let tree = try! PropertyListSerialization.propertyList(from: Self.runningProcessesBinary, format: nil)
        let bytes =
            format == .binary
            ? Self.runningProcessesBinary
            : try! PropertyListSerialization.data(fromPropertyList: tree, format: .xml, options: 0)
        return BenchmarkInput(
            name: "runningprocesses.\(format.suffix)",
            format: format,
            bytes: bytes,
            ours: Self.oursOrPlaceholder(parsing: Self.runningProcessesBinary),
            foundation: try! PropertyListSerialization.propertyList(from: bytes, format: nil)
        )
    }

    /// Our reading of `bytes`; an empty array while our reader cannot read them (for example while it
    /// is still a scaffold), so the Foundation side still runs. `verify()` reports the failure.
    private static func oursOrPlaceholder(parsing bytes: Data) -> PropertyListValue {
        (try? PropertyListValue(parsing: bytes)) ?? .array([])
    }
}
