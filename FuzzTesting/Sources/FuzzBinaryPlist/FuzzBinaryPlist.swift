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
import PropertyLists

/// Reads the input as a binary property list. Errors are expected; a value that parses must
/// survive a binary write and read exactly, and an XML write and read as XML spells it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let value: PropertyListValue
    do {
        value = try BinaryPropertyListReader(bytes: bytes, limits: fuzzLimits).topLevelValue()
    } catch {
        return 0
    }

    let binary = BinaryPropertyListWriter().write(value)
    let reread: PropertyListValue
    do {
        reread = try BinaryPropertyListReader(bytes: binary).topLevelValue()
    } catch {
        fuzzFailure("binary output of a parsed value does not parse: \(error)")
    }
    if reread != value {
        fuzzFailure("binary round trip changed the value: \(firstDifference(reread, value) ?? "?")")
    }

    let xml = XMLPropertyListWriter().write(value)
    do {
        let fromXML = try XMLPropertyListReader().read(xml)
        if XMLSpelling.canSpell(value), !XMLSpelling.matches(fromXML, value) {
            fuzzFailure(
                "XML round trip changed the value: \(firstDifference(fromXML, XMLSpelling.normalized(value)) ?? "?")"
            )
        }
    } catch {
        if XMLSpelling.canSpell(value) {
            fuzzFailure("XML output of a parsed value does not parse: \(error)")
        }
    }
    return 0
}

@main
enum FuzzBinaryPlistMain {
    static func main() {
        exit(runLibFuzzer { data, size in fuzz(UnsafeRawPointer(data) ?? emptyInput, size) })
    }
}
