"""A browser command for oidc-provider-mock, run by `authvault login --browser-command` with the authorize URL as its
last argument: it opens the authorization page, submits it as $TEST_BROWSER_USER (the `sub` to sign in as), and
delivers the redirect to the CLI's loopback listener, then writes {"callback": status, "page": text} (or
{"error": ...}) to $TEST_BROWSER_LOG as JSON.
"""
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import browser_outcome  # noqa: E402 (from the folder above)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def main():
    url = sys.argv[-1]
    outcome = {}
    opener = urllib.request.build_opener(NoRedirects)
    try:
        with opener.open(url, timeout=20) as page:
            outcome["authorizationPage"] = page.status
        form = urllib.parse.urlencode({"sub": os.environ["TEST_BROWSER_USER"]}).encode()
        try:
            opener.open(urllib.request.Request(url, data=form), timeout=20)
            raise RuntimeError("the authorization form was not answered with a redirect")
        except urllib.error.HTTPError as answer:
            if answer.code not in (302, 303):
                raise
            redirect = answer.headers["Location"]
        with urllib.request.urlopen(redirect, timeout=20) as callback:
            outcome.update({"callback": callback.status, "page": callback.read().decode(errors="replace")})
    except Exception as error:  # reported to the test, which fails with it
        outcome["error"] = f"{type(error).__name__}: {error}"
    browser_outcome.report(outcome)


if __name__ == "__main__":
    main()
