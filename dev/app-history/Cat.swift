//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The NSCoding class of a cat, as each version of a pet app archived it with Foundation's
// NSKeyedArchiver. Compiled by make-fixtures.sh as module `CatApp` (versions 1 and 2, class
// `CatApp.Cat`) and as module `PetApp` (version 3, class `PetApp.Cat`): Foundation on Linux names
// a class after its module, and ignores `setClassName(_:for:)` when archiving.

import Foundation

final class Cat: NSObject, NSCoding {
    let version: Int

    init(version: Int) {
        self.version = version
    }

    init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        switch self.version {
        case 1:
            coder.encode("Tom", forKey: "name")
            coder.encode("ginger", forKey: "colour")
            coder.encode(3, forKey: "age")
            coder.encode(nil as String?, forKey: "nickname")
            coder.encode("mouse", forKey: "toy")
            coder.encode(4, forKey: "weight")
            coder.encode("playful", forKey: "mood")
            coder.encode("tabby,lazy", forKey: "tags")
        case 2:
            coder.encode("Felix", forKey: "name")
            coder.encode("black", forKey: "color")
            coder.encode("Fee", forKey: "nickname")
            coder.encode(nil as String?, forKey: "toy")
            coder.encode(5, forKey: "weight")
            coder.encode(7, forKey: "lives")
            coder.encode("sleepy", forKey: "mood")
            coder.encode("black,sleek", forKey: "tags")
        default:
            coder.encode(2, forKey: "archiveVersion")
            coder.encode("Luna", forKey: "name")
            coder.encode("grey", forKey: "color")
            coder.encode("Lu", forKey: "nickname")
            coder.encode("laser", forKey: "toy")
            coder.encode(3.75, forKey: "weight")
            coder.encode(8, forKey: "lives")
            coder.encode("calm", forKey: "mood")
            coder.encode(["grey", "small"] as NSArray, forKey: "tags")
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let version = Int(arguments[1]) else {
    print("usage: \(arguments[0]) VERSION OUTPUT")
    exit(2)
}
let archiver = NSKeyedArchiver(requiringSecureCoding: false)
archiver.encode(Cat(version: version), forKey: NSKeyedArchiveRootObjectKey)
archiver.finishEncoding()
try archiver.encodedData.write(to: URL(fileURLWithPath: arguments[2]))
