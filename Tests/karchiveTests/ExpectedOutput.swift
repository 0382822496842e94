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

/// The committed outputs under `Tests/karchiveTests/Expected/`.
enum ExpectedOutput {
    /// The folder of expected outputs.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Expected", isDirectory: true)

    /// Whether to rewrite the expected files from the actual output instead of comparing
    /// (`KARCHIVE_UPDATE_EXPECTED=1 swift test`). Review the diff before committing.
    static let updates = ProcessInfo.processInfo.environment["KARCHIVE_UPDATE_EXPECTED"] == "1"

    /// Expects `actual` to equal the file `name`, reporting the first differing line.
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = self.directory.appendingPathComponent(name)
        if self.updates {
            try? Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing expected output \(name)", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        let got = line < actualLines.count ? String(actualLines[line]) : "<end>"
        let wanted = line < expectedLines.count ? String(expectedLines[line]) : "<end>"
        Issue.record(
            "\(name) differs at line \(line + 1): got \(got.debugDescription), expected \(wanted.debugDescription)",
            sourceLocation: sourceLocation
        )
    }
}
