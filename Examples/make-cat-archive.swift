//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Writes a keyed archive of two cats that share an owner with Foundation's NSKeyedArchiver, as an
// app would. See Examples/README.md for how to run it.

import Foundation

final class Person: NSObject, NSCoding {
    let name: String
    let since: Date
    init(name: String, since: Date) {
        self.name = name
        self.since = since
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(since, forKey: "since")
    }
    init?(coder: NSCoder) { nil }
}

final class Cat: NSObject, NSCoding {
    let name: String
    let lives: Int
    let owner: Person
    let tags: [String]
    let birthday: Date
    let sibling: Cat?
    init(name: String, lives: Int, owner: Person, tags: [String], birthday: Date, sibling: Cat?) {
        self.name = name
        self.lives = lives
        self.owner = owner
        self.tags = tags
        self.birthday = birthday
        self.sibling = sibling
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(lives, forKey: "lives")
        coder.encode(owner, forKey: "owner")
        coder.encode(tags, forKey: "tags")
        coder.encode(birthday, forKey: "birthday")
        coder.encode(sibling, forKey: "sibling")
    }
    init?(coder: NSCoder) { nil }
}

let ada = Person(name: "Ada", since: Date(timeIntervalSince1970: 1_672_574_400))  // 2023-01-01T12:00:00Z
let felix = Cat(
    name: "Felix",
    lives: 7,
    owner: ada,
    tags: ["black"],
    birthday: Date(timeIntervalSince1970: 1_600_000_000),
    sibling: nil
)
let tom = Cat(
    name: "Tom",
    lives: 9,
    owner: ada,
    tags: ["tabby", "lazy", "ginger"],
    birthday: Date(timeIntervalSince1970: 1_658_765_015.615284),
    sibling: felix
)

guard CommandLine.arguments.count == 2 else {
    print("usage: make-cat-archive OUTPUT")
    exit(2)
}
let data = try NSKeyedArchiver.archivedData(withRootObject: tom, requiringSecureCoding: false)
try data.write(to: URL(fileURLWithPath: CommandLine.arguments[1]))
