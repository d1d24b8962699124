"""A real browser for the browser sign-in tests: headless Chromium (Debian's, never a downloaded one) driven by
Playwright, run by `authvault login --browser-command` with the authorize URL as its last argument.

    python3 playwright_browser.py URL

It opens URL, fills in the stand-in's login form as $TEST_BROWSER_USER / $TEST_BROWSER_PASSWORD when it is shown,
and follows the redirects until the browser lands on the redirect URI's origin (the CLI's listener), then writes what
that page showed to $TEST_BROWSER_LOG as JSON: {"landed": URL without its query, "title": ..., "text": ...}.
$TEST_BROWSER_PROFILE, when set, is a persistent browser profile directory (the Hosted UI cookie survives runs).
"""
import os
import re
import sys
import urllib.parse

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import browser_outcome  # noqa: E402 (from the folder above)


def main():
    url = sys.argv[-1]
    # The listener's origin, from the authorize URL (the stand-in itself is on loopback too).
    redirect = urllib.parse.urlsplit(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["redirect_uri"])
    at_listener = re.compile("^" + re.escape(f"{redirect.scheme}://{redirect.netloc}/"))
    outcome = {}
    try:
        with sync_playwright() as playwright:
            options = {"executable_path": os.environ.get("TEST_CHROMIUM", "/usr/bin/chromium"), "headless": True,
                       "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}
            profile = os.environ.get("TEST_BROWSER_PROFILE")
            if profile:
                context = playwright.chromium.launch_persistent_context(profile, **options)
                browser = None
            else:
                browser = playwright.chromium.launch(**options)
                context = browser.new_context()
            page = context.new_page()
            page.set_default_timeout(45000)
            page.goto(url)
            if not at_listener.match(page.url) and page.locator("#password").count():
                page.fill("#username", os.environ["TEST_BROWSER_USER"])
                page.fill("#password", os.environ["TEST_BROWSER_PASSWORD"])
                page.click("#sign-in")
                outcome["submittedLoginForm"] = True
            page.wait_for_url(at_listener)
            page.wait_for_load_state()
            parts = urllib.parse.urlsplit(page.url)
            outcome.update({"landed": f"{parts.scheme}://{parts.netloc}{parts.path}", "title": page.title(),
                            "text": page.inner_text("body")})
            context.close()
            if browser:
                browser.close()
    except Exception as error:  # reported to the test, which fails with it
        outcome["error"] = f"{type(error).__name__}: {error}"
    browser_outcome.report(outcome)


if __name__ == "__main__":
    main()
