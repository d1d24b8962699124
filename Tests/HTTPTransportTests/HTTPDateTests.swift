import HTTPTransport
import Testing

extension HTTPTransportTests {
    /// The `Date` header read as Unix seconds, the way `ServerClock` learns a provider's time from it.
    @Suite struct HTTPDateReading {
        @Test(arguments: [
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
            ("Tue, 29 Feb 2028 23:59:59 GMT", 1_835_481_599.0),
            ("Fri, 04 Dec 2026 07:12:02 GMT", 1_796_368_322.0),
        ])
        func imfFixdatesAreRead(text: String, seconds: Double) {
            #expect(HTTPDate.unixSeconds(text) == seconds)
        }

        @Test(arguments: [
            "", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nvm 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
        ])
        func otherFormsAreNotRead(text: String) {
            #expect(HTTPDate.unixSeconds(text) == nil)
        }

        @Test func serverTimeIsTheMiddleOfTheDateSecondPlusACachesAge() {
            let date = HTTPHeader(name: "date", value: "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(HTTPResponse(status: 200, headers: [date], body: []).serverTime == 784_111_777.5)
            let aged = HTTPResponse(status: 200, headers: [date, HTTPHeader(name: "Age", value: "30")], body: [])
            #expect(aged.serverTime == 784_111_807.5)
            #expect(HTTPResponse(status: 200, headers: [], body: []).serverTime == nil)
        }
    }
}

extension HTTPTransportTests.HTTPDateReading {
    /// A hostile or broken `Date` or `Age`: read as a time (the clock then refuses an offset beyond an hour) or not
    /// at all, never a trap.
    @Test func hostileDatesAndAgesAreBoundedOrIgnored() {
        let year9999 = HTTPHeader(name: "Date", value: "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPResponse(status: 200, headers: [year9999], body: []).serverTime == 253_402_300_799.5)
        #expect(HTTPDate.unixSeconds("Mon, 01 Jan 1900 00:00:00 GMT") == nil)
        let date = HTTPHeader(name: "Date", value: "Sun, 06 Nov 1994 08:49:37 GMT")
        for age in ["99999999999999999999", "-5", "1e309", "nan"] {
            let aged = HTTPResponse(status: 200, headers: [date, HTTPHeader(name: "Age", value: age)], body: [])
            #expect(aged.serverTime == 784_111_777.5, "Age \(age) is not read")
        }
    }
}
