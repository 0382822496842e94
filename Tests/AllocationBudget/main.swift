//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AllocationCounter
import Foundation
import KeyedArchiving
import PropertyLists

// CI's gate on the coders' allocations (`.ci/run`, release build): encoding and decoding 1,000 of
// the benchmark's cats (`DirectCatModel.swift`, the shape `@Archivable` generates, linked from
// KeyedArchivingTests) on the direct path and on the `Codable` path, each counted by
// `AllocationCounter` on its second run (the first builds what an encoder keeps between calls).
// The counts are exact and the same on every run of a build; a debug build makes many more, so
// only a release build is gated. A count above its budget fails, and so does one below 90% of it,
// so that the budget follows an improvement down. Measured at the budgets' commit: 3, 790, 1,745
// and 4,274 allocations (direct encode and decode, `Codable` encode and decode); one cat per
// archive (issue 33, whose targets are the result `Data` alone for an encode, its object and its
// bytes, and what the value holds and at most one more for a decode; 785 of the 1,000 cats have
// tags, an array each): 2,000 and 785 direct, 3,742 and 4,269 `Codable`, per 1,000 archives.
// The property list layer on the same archive (`propertyListBudgets(of:)`, which CI gates here
// since `thresholds.sh`, which it does not run, was the only gate of the tree writer's and the
// transcoder's allocations): parsing 4,546 (binary) and 4,950 (XML), writing the tree 95 and 17,
// rewriting through the lazy reader 110 (binary) and 33 (XML; 3,763 and 17,016 before the XML
// writers kept one stack of key orders, and the transcoder one of entries).
// `Benchmarks/thresholds.sh` gates the benchmarks' counts the same way, in a build that CI does
// not make (it needs swift-syntax in release).
//
//   swift build -c release --product allocation-budget && .build/release/allocation-budget

/// The allocations `body` makes on this thread, on its second run.
func allocations(_ body: () throws -> Void) rethrows -> Int {
    try body()
    allocation_counter_start()
    defer { _ = allocation_counter_stop() }
    try body()
    return allocation_counter_stop()
}

/// One gated count: what is measured, and its budget for 1,000 cats.
struct Budget {
    let name: String
    let budget: Int
    let measure: () throws -> Int
}

func budgets() throws -> [Budget] {
    let cats = DirectCatGenerator.cats(count: 1_000, seed: 7)
    var result: [Budget] = []
    for (path, mode, encodeBudget, decodeBudget, oneEncodeBudget, oneDecodeBudget) in [
        ("direct", DirectArchiving.enabled, 3, 830, 2_100, 820),
        ("Codable", DirectArchiving.disabled, 1_810, 4_420, 3_900, 4_420),
    ] {
        var encoder = KeyedArchiveEncoder()
        encoder.directArchiving = mode
        var decoder = KeyedArchiveDecoder()
        decoder.directArchiving = mode
        let data = try encoder.encode(cats)
        guard try decoder.decode([DirectCat].self, from: data) == cats else {
            throw BudgetError(reason: "the \(path) path does not read its cats back")
        }
        result.append(
            Budget(name: "encode, \(path) path", budget: encodeBudget) {
                try allocations { _ = try encoder.encode(cats) }
            }
        )
        result.append(
            Budget(name: "decode, \(path) path", budget: decodeBudget) {
                try allocations { _ = try decoder.decode([DirectCat].self, from: data) }
            }
        )
        // Each cat an archive of its own, as a store's saves and loads write and read them.
        let archives = try cats.map { try encoder.encode($0) }
        result.append(
            Budget(name: "encode one at a time, \(path) path", budget: oneEncodeBudget) {
                try allocations { for cat in cats { _ = try encoder.encode(cat) } }
            }
        )
        result.append(
            Budget(name: "decode one at a time, \(path) path", budget: oneDecodeBudget) {
                try allocations { for archive in archives { _ = try decoder.decode(DirectCat.self, from: archive) } }
            }
        )
    }
    result += try propertyListBudgets(of: KeyedArchiveEncoder().encode(cats))
    return result
}

/// The property list layer on the archive of the 1,000 cats: parsing it into a tree, writing the
/// tree, and rewriting the file through the lazy reader, in binary and in XML.
func propertyListBudgets(of archive: Data) throws -> [Budget] {
    let bytes = [UInt8](archive)
    let tree = try PropertyListValue(parsing: bytes)
    let xml = tree.serialized(as: .xml)
    var result: [Budget] = []
    for (name, budget, body) in [
        ("parse a binary property list into a tree", 4_700, { _ = try PropertyListValue(parsing: bytes) }),
        ("parse an XML property list into a tree", 5_150, { _ = try PropertyListValue(parsing: xml) }),
        ("write a tree as a binary property list", 100, { _ = tree.serialized(as: .binary) }),
        ("write a tree as an XML property list", 18, { _ = tree.serialized(as: .xml) }),
        (
            "rewrite a binary property list as binary, read lazily", 115,
            { try BinaryPropertyListReader(bytes: bytes).writeBinary { _ in } }
        ),
        (
            "rewrite a binary property list as XML, read lazily", 35,
            { try BinaryPropertyListReader(bytes: bytes).writeXML { _ in } }
        ),
    ] as [(String, Int, () throws -> Void)] {
        result.append(Budget(name: name, budget: budget) { try allocations(body) })
    }
    return result
}

struct BudgetError: Error, CustomStringConvertible {
    let reason: String
    var description: String { self.reason }
}

func main() throws {
    guard allocation_counter_is_available() != 0 else {
        print("allocation-budget: allocations are counted with glibc only; nothing checked")
        return
    }
    var failures = 0
    for budget in try budgets() {
        let count = try budget.measure()
        let verdict: String
        if count > budget.budget {
            verdict = "OVER the budget of \(budget.budget)"
            failures += 1
        } else if count * 10 < budget.budget * 9 {
            verdict = "below 90% of the budget of \(budget.budget): lower the budget"
            failures += 1
        } else {
            verdict = "within the budget of \(budget.budget)"
        }
        print("allocation-budget: \(budget.name): \(count) allocations for 1,000 cats, \(verdict)")
    }
    if failures > 0 {
        print("allocation-budget: \(failures) budget(s) not kept (Tests/AllocationBudget/main.swift)")
        exit(1)
    }
}

try main()
