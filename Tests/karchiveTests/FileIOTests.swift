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
import Foundation
import PropertyLists
import Testing

@testable import karchive

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs over `--max-input-size` fail before they are read whole.
@Suite struct FileIOTests {
    @Test func aRegularFileOverTheLimitFailsWithItsSizeBeforeBeingRead() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("big.plist").path
            try Data(repeating: 0x41, count: 5_000).write(to: URL(fileURLWithPath: path))
            #expect(try FileIO.readFile(atPath: path, limit: 5_000).count == 5_000)
            let error = #expect(throws: PropertyListError.self) { try FileIO.readFile(atPath: path, limit: 4_999) }
            #expect(error?.code == .sizeLimitExceeded)
            #expect(error?.reason == "input of 5000 bytes exceeds the limit of 4999")
        }
    }

    @Test func aStreamStopsOnceItPassesTheLimit() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        let written = DispatchSemaphore(value: 0)
        // 256 KB, four times a pipe's buffer: the reader has to stop in the middle of the stream.
        let writer = Thread {
            let chunk = [UInt8](repeating: 0x42, count: 4_096)
            for _ in 0..<64 {
                _ = chunk.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            }
            _ = close(writeEnd)
            written.signal()
        }
        writer.start()
        let error = #expect(throws: PropertyListError.self) {
            try FileIO.readAll(from: readEnd, name: "<pipe>", limit: 70_000)
        }
        #expect(error?.code == .sizeLimitExceeded)
        #expect(error?.reason == "input of more than 70000 bytes exceeds the limit of 70000")
        // Drain the rest, so that the writer never writes to a closed pipe.
        var rest = [UInt8](repeating: 0, count: 65_536)
        while rest.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
        written.wait()
        _ = close(readEnd)
    }

    @Test func standardInputOverTheLimitFails() throws {
        let bplist = PropertyListValue.array(["a", "b"]).serialized(as: .binary)
        let run = try runTool(["dump", "--max-input-size", "\(bplist.count - 1)", "-"], standardInput: Array(bplist))
        #expect(run.exitCode == .failure)
        #expect(run.errors.contains("sizeLimitExceeded"))
        let loose = try runTool(["dump", "--max-input-size", "\(bplist.count)", "-"], standardInput: Array(bplist))
        #expect(loose.exitCode == .success)
    }
}
