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

/// Archives of the wrapped-property models written by the expansion of `@Archivable` before it
/// archived `Codable` wrappers as synthesized `Codable` does (commit 4f44b73): each wrapped
/// property's wrapped value under its name, inline where it is a number, by the rule of its type
/// (an optional left out when `nil`). Both paths wrote the same bytes. Produced by encoding the
/// values of ``WrappedPropertyTests`` (`speaker`, `fullPlaylist`, `sparsePlaylist`, `tally`) with
/// `KeyedArchiveEncoder()` and `JSONEncoder` (sorted keys) at that commit.
enum WrappedPropertyArchivesAtMain {
    /// `speaker(volume: 7, room: "Den")`.
    static let speaker =
        Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b3BYJG9iamVjdHMSAAGGoF8QD05TS2V5ZWRBcmNoaXZlctEI"
                + "CVRyb290gAGlCwwVFhdVJG51bGzUDQ4PEBESExRWJGNsYXNzVnZvbHVtZVRyb29tVG5hbWWABBAHgAKAA1NkZW5XS2l0Y2hlbtIY"
                + "GRobWiRjbGFzc25hbWVYJGNsYXNzZXNXU3BlYWtlcqIaHFhOU09iamVjdAgRGiQpMjdJTFFTWV9ob3Z7gIKEhoiMlJmkrbW4AAAA"
                + "AAAAAQEAAAAAAAAAHQAAAAAAAAAAAAAAAAAAAME="
        ) ?? Data()

    /// `fullPlaylist`: every wrapped property set.
    static let fullPlaylist =
        Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b3BYJG9iamVjdHMSAAGGoF8QD05TS2V5ZWRBcmNoaXZlctEI"
                + "CVRyb290gAGrCwwdHh8gJicoLi9VJG51bGzYDQ4PEBESExQVFhcYGRobHFYkY2xhc3NVdGl0bGVWcmF0aW5nWG5pY2tuYW1lVG5v"
                + "dGVUdGFnc1Z2b2x1bWVUcm9vbYAKgAIQBIADgASABRAJgAlUUm9hZFFSVExvdWTSDSEiI1pOUy5vYmplY3RzgAiiJCWABoAHUWFR"
                + "YtIpKissWiRjbGFzc25hbWVYJGNsYXNzZXNXTlNBcnJheaIrLVhOU09iamVjdFVhdHRpY9IpKjAxWFBsYXlsaXN0ojAtAAgAEQAa"
                + "ACQAKQAyADcASQBMAFEAUwBfAGUAdgB9AIMAigCTAJgAnQCkAKkAqwCtAK8AsQCzALUAtwC5AL4AwADFAMoA1QDXANoA3ADeAOAA"
                + "4gDnAPIA+wEDAQYBDwEVARoBIwAAAAAAAAIBAAAAAAAAADIAAAAAAAAAAAAAAAAAAAEm"
        ) ?? Data()

    /// `sparsePlaylist`: the optionals `nil`, the rest at their initial values.
    static let sparsePlaylist =
        Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b3BYJG9iamVjdHMSAAGGoF8QD05TS2V5ZWRBcmNoaXZlctEI"
                + "CVRyb290gAGnCwwcHSEnKFUkbnVsbNgNDg8QERITFBUWFxgYGRobViRjbGFzc1V0aXRsZVZyYXRpbmdYbmlja25hbWVUbm90ZVR0"
                + "YWdzVnZvbHVtZVRyb29tgAaAAhADgACAAxAFgAVQ0g0eHyBaTlMub2JqZWN0c4AEoNIiIyQlWiRjbGFzc25hbWVYJGNsYXNzZXNX"
                + "TlNBcnJheaIkJlhOU09iamVjdFNkZW7SIiMpKlhQbGF5bGlzdKIpJgAIABEAGgAkACkAMgA3AEkATABRAFMAWwBhAHIAeQB/AIYA"
                + "jwCUAJkAoAClAKcAqQCrAK0ArwCxALMAtAC5AMQAxgDHAMwA1wDgAOgA6wD0APgA/QEGAAAAAAAAAgEAAAAAAAAAKwAAAAAAAAAA"
                + "AAAAAAAAAQk="
        ) ?? Data()

    /// `tally`: wrappers that are not `Codable` (unchanged by the new expansion).
    static let tally =
        Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b3BYJG9iamVjdHMSAAGGoF8QD05TS2V5ZWRBcmNoaXZlctEI"
                + "CVRyb290gAGlCwwVFhdVJG51bGzUDQ4PEBESExRWJGNsYXNzVWNvdW50VW93bmVyVWxhYmVsgAQQA4ACgANTQW5uUXjSGBkaG1ok"
                + "Y2xhc3NuYW1lWCRjbGFzc2VzVVRhbGx5ohocWE5TT2JqZWN0CBEaJCkyN0lMUVNZX2hvdXuBg4WHiY2PlJ+orrEAAAAAAAABAQAA"
                + "AAAAAAAdAAAAAAAAAAAAAAAAAAAAug=="
        ) ?? Data()

    /// `fullPlaylist` as JSON.
    static let fullPlaylistJSON = Data(
        (#"{"nickname":"R","note":"Loud","rating":4,"room":"attic","#
            + #""tags":["a","b"],"title":"Road","volume":9}"#).utf8
    )

    /// `sparsePlaylist` as JSON.
    static let sparsePlaylistJSON = Data(
        (#"{"rating":3,"room":"den","tags":[],"#
            + #""title":"","volume":5}"#).utf8
    )
}
