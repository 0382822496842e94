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
import FuzzCommon
import KeyedArchiving
import PropertyLists

/// Reads the input as a keyed archive and runs everything that inspects one: the type-erased
/// value, the validator and the JSON writer. Errors and findings are expected; crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    _ = ArchiveValidator(limits: fuzzLimits).validate(bytes: bytes)
    _ = ArchiveValidator(allowsCycles: true, limits: fuzzLimits).validate(bytes: bytes)

    let archive: KeyedArchive
    do {
        archive = try KeyedArchive(parsing: bytes, limits: fuzzLimits)
    } catch {
        return 0
    }
    _ = ArchiveValidator(limits: fuzzLimits).validate(archive)
    _ = try? ArchivedValueJSONWriter(limits: fuzzLimits).write(archive)
    _ = try? ArchivedObjectGraph(archive: archive, limits: fuzzLimits)
    _ = try? ArchivedValue(archive: archive, limits: fuzzLimits, allowedClassNames: ArchivedValue.foundationClassNames)
    guard let value = try? ArchivedValue(archive: archive, limits: fuzzLimits) else {
        return 0
    }
    _ = value.className
    _ = try? ArchivedValueJSONWriter(limits: fuzzLimits).write(value)
    return 0
}

@main
enum FuzzKeyedArchiveMain {
    static func main() {
        exit(runLibFuzzer { data, size in fuzz(UnsafeRawPointer(data) ?? emptyInput, size) })
    }
}
