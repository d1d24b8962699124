import Testing

@testable import Loopback

@Suite struct CallbackPageTests {
    @Test func textIsHTMLEscaped() {
        #expect(
            CallbackPage.escape(#"<a href="x">Tom & 'Jerry'</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        let html = CallbackPage.success("Signed in as <script>alert(1)</script>").html
        #expect(html.contains("Signed in as &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script"))
    }

    @Test func pagesLoadNothingFromOutside() {
        for page in [CallbackPage.success("ok"), .failure("no"), .unanswered, .denied, .notFound] {
            let html = page.html.lowercased()
            #expect(!html.contains("src="))
            #expect(!html.contains("href="))
            #expect(!html.contains("url("))
            #expect(!html.contains("<script"))
        }
    }
}
