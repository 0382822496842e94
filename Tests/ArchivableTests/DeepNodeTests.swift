//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving
import KeyedArchivingMacros
import PropertyLists
import TestSupport
import Testing

/// `@Archivable` objects nested deeply, read on the smallest stack a reader meets (512 KiB):
/// both paths throw `depthLimitExceeded` instead of overflowing the stack.
@Suite struct DeepNodeTests {
    /// `count` ``Node``s, each the only child of the one before, with the class dictionary the
    /// encoder writes for `Node`.
    static func chain(_ count: Int) throws -> KeyedArchive {
        let sample = try KeyedArchive(parsing: BothPaths.encoder(.enabled).encode(Node()))
        let nodeClass = try #require(sample.objects.first { $0.dictionaryValue?["$classname"] != nil })
        let arrayClass: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
        var objects: [PropertyListValue] = ["$null", nodeClass, arrayClass, "node"]
        for index in 0..<count {
            let node = UInt64(objects.count)
            objects.append(["$class": .uid(1), "label": .uid(3), "children": .uid(UID(node + 1))])
            objects.append(["$class": .uid(2), "NS.objects": index == count - 1 ? [] : [.uid(UID(node + 2))]])
        }
        return KeyedArchive(top: [("root", UID(4))], objects: objects)
    }

    @Test(arguments: BothPaths.modes)
    func bothPathsStopBeforeTheStackRunsOut(mode: DirectArchiving) throws {
        let archive = try Self.chain(20_000)
        let decoder = BothPaths.decoder(mode, limits: PropertyListLimits(maximumDepth: 1_000_000))
        let error = #expect(throws: DecodingError.self) {
            try SmallStack.run { _ = try decoder.decode(Node.self, from: archive) }
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        let underlying = context.underlyingError as? KeyedArchiveError
        #expect(underlying?.code == .depthLimitExceeded)
        #expect(underlying?.reason.contains("stack") == true)
    }

    @Test func aShallowChainDecodes() throws {
        let node = try BothPaths.decoder(.enabled).decode(Node.self, from: try Self.chain(3))
        #expect(node.label == "node" && node.children.first?.children.first?.children.isEmpty == true)
    }
}
