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

@Suite struct ToolTests {
    @Test func reportsItsVersion() throws {
        let (code, message) = try #require(usageError(["--version"]))
        #expect(code == .success)
        #expect(message == "0.1.0")
    }

    @Test func listsItsSubcommands() {
        let names = Tool.configuration.subcommands.map { $0._commandName }
        #expect(names == ["dump", "convert", "info", "validate"])
    }

    @Test func rejectsUnknownSubcommands() throws {
        let (code, _) = try #require(usageError(["frobnicate", "x.plist"]))
        #expect(code == .validationFailure)
    }
}
