//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a store with a disk byte limit keeps in memory between evictions: the loads not yet
/// written to disk, and, on the files backend, an estimate of the bytes its entries take.
///
/// Loads are noted here only (a dictionary write, no system call) and carried into the entries'
/// recency on disk by the next eviction, in its own lock or transaction.
struct DiskUsage: Sendable {
    /// A load not yet written to disk.
    struct Read: Sendable {
        /// The entry's key.
        var key: String
        /// The store clock's time of the load, in seconds since 1970.
        var time: Double
    }

    /// On the files backend, the bytes of the entry files as this instance last counted them, plus
    /// and minus its own writes since; `nil` until the first count. Other processes' writes are
    /// not in it: ``estimate(generationTotal:)`` allows for them, and the count is redone by
    /// every eviction.
    var byteCount: Int?
    /// The control file's ``StoreControlFile/generationTotal()`` at the last count, plus 2 for
    /// each of this instance's writes since.
    var countedGenerationTotal: UInt64?
    /// The mean size of an entry file at the last count.
    var meanEntrySize = 0

    /// Records a count of `byteCount` bytes in `entries` entry files, made when the control file's
    /// generation total was `generationTotal`.
    mutating func counted(_ byteCount: Int, entries: Int, generationTotal: UInt64?) {
        self.byteCount = byteCount
        self.countedGenerationTotal = generationTotal
        self.meanEntrySize = entries > 0 ? byteCount / entries : 0
    }

    /// The bytes the entry files may take: ``byteCount``, plus a mean entry for each write another
    /// instance or process made since the last count (`generationTotal` is the control file's
    /// now); `nil` when unknown.
    func estimate(generationTotal: UInt64?) -> Int? {
        guard let byteCount, let counted = self.countedGenerationTotal, let generationTotal else {
            return self.byteCount
        }
        let foreignWrites = Int(truncatingIfNeeded: (generationTotal &- counted) / 2)
        guard foreignWrites >= 0, foreignWrites < Int.max / max(1, self.meanEntrySize) else { return nil }
        return byteCount + foreignWrites * self.meanEntrySize
    }

    /// The loads since the last eviction, by entry file name; the latest of each.
    private(set) var reads: [String: Read] = [:]

    /// The most entries whose loads are remembered between two evictions, so that a process that
    /// reads much and writes little does not grow without bound; loads of other entries are then
    /// not noted until the next eviction.
    static var readLimit: Int { 10_000 }

    /// Notes a load of `key`, whose entry file is named `fileName`, at `time`.
    mutating func noteRead(key: String, fileName: String, at time: Double) {
        if self.reads.count >= Self.readLimit, self.reads[fileName] == nil { return }
        self.reads[fileName] = Read(key: key, time: time)
    }

    /// Returns the loads noted so far and forgets them.
    mutating func takeReads() -> [String: Read] {
        defer { self.reads = [:] }
        return self.reads
    }

    /// Notes again the loads `reads` that ``takeReads()`` returned, where no later load of the
    /// same entry was noted since: an eviction whose write failed has not recorded them.
    mutating func restore(_ reads: [String: Read]) {
        for (fileName, read) in reads where (self.reads[fileName]?.time ?? -.infinity) < read.time {
            self.noteRead(key: read.key, fileName: fileName, at: read.time)
        }
    }

    /// Adds `change` bytes to ``byteCount``, if it is known, for one write of this instance.
    mutating func add(_ change: Int) {
        self.byteCount? += change
        self.countedGenerationTotal? &+= 2
    }
}
