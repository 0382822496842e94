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
import Testing

@testable import ArchiveStorage

@Suite struct DurableFileTests {
    @Test func replaceCreatesThenReplacesAndLeavesNoTemporaryFiles() throws {
        let temporary = TemporaryDirectory("DurableFileTests")
        defer { temporary.remove() }
        let directory = temporary.path
        let path = directory + "/entry"
        #expect(try DurableFile.read(atPath: path) == nil)
        try DurableFile.replace(atPath: path, with: [1, 2, 3])
        #expect(try DurableFile.read(atPath: path) == [1, 2, 3])
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try DurableFile.replace(atPath: path, with: large)
        #expect(try DurableFile.read(atPath: path) == large)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["entry"])
    }

    @Test func failuresAreTypedFileSystemErrors() throws {
        let temporary = TemporaryDirectory("DurableFileTests")
        defer { temporary.remove() }
        let missingDirectory = temporary.path + "/missing/entry"
        let error = #expect(throws: ArchiveStorageError.self) {
            try DurableFile.replace(atPath: missingDirectory, with: [1])
        }
        #expect(error?.code == .fileSystem)
        #expect((error?.underlying as? SystemError)?.code == ENOENT)
        #expect(error?.description.contains("No such file or directory") == true)
    }
}
