//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ArchiveStorage

/// The loads an instance notes for its next eviction, and what an eviction that failed to record
/// them gives back.
@Suite struct DiskUsageTests {
    /// An eviction takes the noted loads; when its write fails it notes them again, keeping any
    /// newer load noted meanwhile and adding none that is older.
    @Test func aFailedEvictionNotesItsLoadsAgain() {
        var usage = DiskUsage()
        usage.noteRead(key: "a", fileName: "k-a", at: 10)
        usage.noteRead(key: "b", fileName: "k-b", at: 11)
        let taken = usage.takeReads()
        #expect(taken.keys.sorted() == ["k-a", "k-b"])
        #expect(usage.reads.isEmpty)
        // Meanwhile: "a" loaded again, later than the taken load.
        usage.noteRead(key: "a", fileName: "k-a", at: 20)
        usage.restore(taken)
        #expect(usage.reads["k-a"]?.time == 20)
        #expect(usage.reads["k-b"]?.time == 11)
        #expect(usage.reads["k-b"]?.key == "b")
        #expect(usage.reads.count == 2)
    }
}
