//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import PropertyLists

/// The bounds every command reads and resolves its inputs with: `PropertyListLimits`, one option each.
struct LimitsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The largest input accepted, in bytes.", valueName: "bytes"))
    var maxInputSize = PropertyListLimits.default.maximumInputSize

    @Option(help: ArgumentHelp("The deepest nesting of containers and objects accepted.", valueName: "depth"))
    var maxDepth = PropertyListLimits.default.maximumDepth

    @Option(help: ArgumentHelp("The most objects (binary) or values (XML) an input may hold.", valueName: "count"))
    var maxObjects = PropertyListLimits.default.maximumObjectCount

    @Option(help: ArgumentHelp("The most elements or entries one array or dictionary may hold.", valueName: "count"))
    var maxCollectionCount = PropertyListLimits.default.maximumCollectionCount

    @Option(help: ArgumentHelp("The longest string accepted, in bytes as stored.", valueName: "bytes"))
    var maxStringLength = PropertyListLimits.default.maximumStringLength

    @Option(help: ArgumentHelp("The largest data value accepted, in bytes.", valueName: "bytes"))
    var maxDataLength = PropertyListLimits.default.maximumDataLength

    @Option(
        help: ArgumentHelp(
            "The decoded size always allowed, in bytes, with shared objects counted wherever they are used.",
            valueName: "bytes"
        )
    )
    var decodedSizeAllowance = PropertyListLimits.default.decodedSizeAllowance

    @Option(
        help: ArgumentHelp(
            "How many times its input's size the decoded size may grow beyond --decoded-size-allowance.",
            valueName: "factor"
        )
    )
    var maxExpansion = PropertyListLimits.default.maximumExpansion

    /// The limits the options describe.
    var limits: PropertyListLimits {
        PropertyListLimits(
            maximumDepth: self.maxDepth,
            maximumInputSize: self.maxInputSize,
            maximumObjectCount: self.maxObjects,
            maximumCollectionCount: self.maxCollectionCount,
            maximumStringLength: self.maxStringLength,
            maximumDataLength: self.maxDataLength,
            decodedSizeAllowance: self.decodedSizeAllowance,
            maximumExpansion: self.maxExpansion
        )
    }

    func validate() throws {
        let positive: [(String, Int)] = [
            ("--max-input-size", self.maxInputSize), ("--max-depth", self.maxDepth),
            ("--max-objects", self.maxObjects), ("--max-expansion", self.maxExpansion),
        ]
        for (name, value) in positive where value <= 0 {
            throw ValidationError("\(name) must be positive, but is \(value).")
        }
        let nonNegative: [(String, Int)] = [
            ("--max-collection-count", self.maxCollectionCount), ("--max-string-length", self.maxStringLength),
            ("--max-data-length", self.maxDataLength), ("--decoded-size-allowance", self.decodedSizeAllowance),
        ]
        for (name, value) in nonNegative where value < 0 {
            throw ValidationError("\(name) must not be negative, but is \(value).")
        }
    }
}
