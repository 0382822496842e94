//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What the decoder needs to know about an object's class: its name, for messages, and which
/// Foundation shape, if any, its contents have.
internal struct DecodedClassInfo {
    /// The Foundation shapes the decoder reads specially.
    enum Kind: UInt8 {
        /// `NSNull`: decodes as `nil`.
        case null
        /// `NSString`, `NSMutableString`: `NS.string` or `NS.bytes`.
        case string
        /// `NSData`, `NSMutableData`: `NS.data`.
        case data
        /// `NSDate`: `NS.time`.
        case date
        /// `NSUUID`: `NS.uuidbytes`.
        case uuid
        /// `NSURL`: `NS.base` and `NS.relative`.
        case url
        /// `NSArray`, `NSMutableArray`: `NS.objects`.
        case array
        /// `NSSet`, `NSMutableSet`: `NS.objects`.
        case set
        /// `NSCountedSet`: `NS.objects`, or `NS.count` and `NS.object0`, `NS.object1`, ….
        case countedSet
        /// `NSOrderedSet`, `NSMutableOrderedSet`: `NS.object.0`, `NS.object.1`, ….
        case orderedSet
        /// `NSDictionary`, `NSMutableDictionary`: `NS.keys` and `NS.objects`.
        case dictionary
        /// Any other class: the object's own keys are its contents.
        case other
    }

    /// The class name.
    let name: String
    /// The shape of the class's objects.
    let kind: Kind

    /// Classifies a class by its name, then by its superclasses, most specific first.
    init(_ archivedClass: ArchivedClass) {
        self.name = archivedClass.name
        if let kind = Self.kind(ofClassNamed: archivedClass.name) {
            self.kind = kind
            return
        }
        for name in archivedClass.classes {
            if let kind = Self.kind(ofClassNamed: name) {
                self.kind = kind
                return
            }
        }
        self.kind = .other
    }

    private static func kind(ofClassNamed name: String) -> Kind? {
        switch name {
        case "NSNull": return .null
        case "NSString", "NSMutableString": return .string
        case "NSData", "NSMutableData": return .data
        case "NSDate": return .date
        case "NSUUID": return .uuid
        case "NSURL": return .url
        case "NSArray", "NSMutableArray": return .array
        case "NSSet", "NSMutableSet": return .set
        case "NSCountedSet": return .countedSet
        case "NSOrderedSet", "NSMutableOrderedSet": return .orderedSet
        case "NSDictionary", "NSMutableDictionary": return .dictionary
        default: return nil
        }
    }
}
