import AuthCrypto
import BoundedJSON
import Foundation
import Testing

/// The project's own JSON, against RFC 8259's text and Foundation's parser.
@Suite struct BoundedJSONTests {
    @Suite struct JSONValueTests {
        func parse(_ text: String) -> JSONValue? { JSONValue.parse(Array(text.utf8)) }

        @Test func parsesTheObjectExampleOfRFC8259Section13() throws {
            let example = """
                {
                  "Image": {
                    "Width":  800,
                    "Height": 600,
                    "Title":  "View from 15th Floor",
                    "Thumbnail": {
                      "Url":    "http://www.example.com/image/481989943",
                      "Height": 125,
                      "Width":  100
                    },
                    "Animated" : false,
                    "IDs": [116, 943, 234, 38793]
                  }
                }
                """
            let image = try #require(parse(example)?["Image"])
            #expect(image["Width"]?.number == 800)
            #expect(image["Title"]?.string == "View from 15th Floor")
            #expect(image["Thumbnail"]?["Url"]?.string == "http://www.example.com/image/481989943")
            #expect(image["Animated"]?.bool == false)
            #expect(image["IDs"]?.array == [.number(116), .number(943), .number(234), .number(38793)])
        }

        @Test func decodesTheEscapesOfRFC8259Section7() {
            // Section 7: "\u005C" is a reverse solidus; the G clef U+1D11E is written "\uD834\uDD1E".
            #expect(parse(#""\u005C""#) == .string("\\"))
            #expect(parse(#""\uD834\uDD1E""#) == .string("\u{1D11E}"))
            #expect(parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
            #expect(parse(#""é€""#) == .string("é€"))
        }

        @Test func followsTheNumberGrammar() {
            #expect(parse("-0") == .number(0))
            #expect(parse("1e3") == .number(1000))
            #expect(parse("2.5E-1") == .number(0.25))
            #expect(parse(" 1800000000 ") == .number(1_800_000_000))
            for bad in ["01", "1.", ".5", "-", "+1", "1e", "0x10", "Infinity", "NaN", "1e400"] {
                #expect(parse(bad) == nil, "accepted \(bad)")
            }
        }

        @Test func refusesMalformedInput() {
            let rejected = [
                "", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'a'", "\"abc", "tru", "nul",
                "\"tab\there\"", "{\"a\":1}{", "[1] 2", "\"\\x\"", "\"\\u12\"", "\"\\uDEAD\"", "\"\\uD834\"",
                "{\"a\":1,\"a\":2}",
            ]
            for text in rejected { #expect(parse(text) == nil, "accepted \(text)") }
            #expect(JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) == nil)  // invalid UTF-8 inside a string
            #expect(JSONValue.parse([0xFF, 0xFE, 0x00]) == nil)
        }

        @Test func boundsTheNesting() {
            let allowed =
                String(repeating: "[", count: JSONValue.maximumDepth)
                + String(repeating: "]", count: JSONValue.maximumDepth)
            let deeper = "[" + allowed + "]"
            #expect(parse(allowed) != nil)
            #expect(parse(deeper) == nil)
            #expect(parse(String(repeating: "[", count: 100_000)) == nil)
        }

        @Test func writesWhatFoundationReadsBack() throws {
            let tricky = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} é \u{1D11E}"
            let value = JSONValue.object(
                ("s", .string(tricky)), ("n", .number(1_800_000_000)), ("f", .number(0.5)),
                ("b", .bool(true)), ("z", .null), ("a", .array([.number(-3)])),
                ("t", .secret(SecretBytes(utf8: "tok\"en"))))
            var bytes: [UInt8] = []
            value.write(into: &bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix(#"{"s":"#))
            #expect(text.contains(#""n":1800000000,"#))
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(decoded["s"] as? String == tricky)
            #expect(decoded["n"] as? Int == 1_800_000_000)
            #expect(decoded["f"] as? Double == 0.5)
            #expect(decoded["b"] as? Bool == true)
            #expect(decoded["z"] is NSNull)
            #expect(decoded["a"] as? [Int] == [-3])
            #expect(decoded["t"] as? String == "tok\"en")
        }

        /// What a terminal or a log would act on (C0 and C1 controls, DEL, line and paragraph separators, bidi
        /// controls) is written as \uXXXX, a string and a secret alike; the JSON is valid and decodes, with Foundation
        /// and with the parser, to the same string. Other non-ASCII text stays as it is.
        @Test func escapesWhatATerminalWouldActOnAndDecodesToTheSameString() throws {
            let hostile: [Unicode.Scalar] = [
                "\u{1B}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{2028}", "\u{2029}",
                "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
                "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200F}", "\u{061C}",
            ]
            var name = "Évil "
            for scalar in hostile {
                name.unicodeScalars.append(scalar)
                name += "x"
            }
            let value = JSONValue.object(("name", .string(name)), ("token", .secret(SecretBytes(utf8: name))))
            let text = String(decoding: value.bytes, as: UTF8.self)
            for scalar in hostile {
                #expect(!text.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) is written raw")
                #expect(
                    text.contains("\\u" + String(format: "%04x", scalar.value)),
                    "U+\(String(scalar.value, radix: 16)) as \\uXXXX")
            }
            #expect(text.contains("Évil "), "other text is kept as it is")
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String: Any])
            #expect(decoded["name"] as? String == name && decoded["token"] as? String == name)
            #expect(JSONValue.parse(value.bytes)?["name"]?.string == name)
        }

        /// JSONEncoder's pretty output (the CLI's `--json` of typed values) gets the same escapes; its own line
        /// breaks and indentation stay, and it decodes to the same values.
        @Test func anotherEncodersJSONGetsTheSameEscapes() throws {
            let name = "a\u{202E}b\u{2028}c\u{85}d\u{7F}e\u{2066}f\ng"
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let written = String(decoding: try encoder.encode(["name": name, "other": "é"]), as: UTF8.self)
            let escaped = JSONValue.escapingControls(inJSON: written)
            #expect(escaped.contains(#""name" : "a\u202eb\u2028c\u0085d\u007fe\u2066f\ng""#), "\(escaped)")
            #expect(escaped.contains("{\n  \""), "the encoder's own layout stays")
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String])
            #expect(decoded == ["name": name, "other": "é"])
            #expect(JSONValue.escapingControls(inJSON: #"{"a":"b"}"#) == #"{"a":"b"}"#)
        }

        /// Malformed UTF-8 in a secret's bytes is written as U+FFFD: the output stays valid JSON.
        @Test func malformedUTF8StaysValidJSON() throws {
            let value = JSONValue.array([.secret(SecretBytes([0x61, 0xFF, 0x62]))])
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String])
            #expect(decoded == ["a\u{FFFD}b"])
        }
    }

    /// The Decodable path (Cognito's and the OAuth server's typed payloads) reads what the parser reads, bounded too.
    @Suite struct DecodableTests {
        @Test func decodesLikeTheParser() throws {
            let text = #"{"a":[1,"two",true,null,{"b":2.5}],"c":"é"}"#
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            let parsed = try #require(JSONValue.parse(Array(text.utf8)))
            #expect(decoded.dictionary == parsed.dictionary)
            #expect(decoded["a"]?.array?[4]["b"]?.number == 2.5)
        }

        @Test func boundsTheNestingToo() {
            let deeper =
                String(repeating: "[", count: JSONValue.maximumDepth + 1)
                + String(repeating: "]", count: JSONValue.maximumDepth + 1)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(deeper.utf8)) }
        }
    }

    /// A token on its way out is a JSON string when written; text that looks like one is parsed as a plain string.
    @Suite struct SecretTests {
        @Test func aSecretIsWrittenAsAStringAndNeverParsedBackAsASecret() throws {
            var bytes: [UInt8] = []
            JSONValue.object(("token", .secret(SecretBytes(utf8: "eyJ.a\\b")))).write(into: &bytes)
            let parsed = try #require(JSONValue.parse(bytes))
            #expect(parsed["token"] == .string("eyJ.a\\b"))
            #expect(parsed["token"]?.string == "eyJ.a\\b")
        }

        @Test func aDictionaryHasEveryMemberAndNothingElse() {
            #expect(
                JSONValue.parse(Array(#"{"x":1,"y":"z"}"#.utf8))?.dictionary == ["x": .number(1), "y": .string("z")])
            #expect(JSONValue.parse(Array("[1]".utf8))?.dictionary == nil)
        }
    }
}
