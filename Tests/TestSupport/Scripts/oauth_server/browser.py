"""The browser's part of a sign-in, without a browser: follows redirects from a URL with a cookie jar, fills in
Django's login form (the CSRF cookie and field) when it is shown, confirms a logout the provider asks about
(a logout request without an ID token hint), and stops at the first redirect to a URL that
starts with STOP_PREFIX (the loopback redirect URI, where nothing needs to listen).

    python3 browser.py URL STOP_PREFIX COOKIE_FILE [USERNAME PASSWORD]

Prints {"redirect": URL, "signedIn": true when the login form was submitted} and exits 0; on any other outcome
prints {"error": ..., "status": ..., "url": ...} and exits 1. The cookie file keeps the session between runs.
"""
import html
import http.cookiejar
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fail(reason, status=None, url=None):
    print(json.dumps({"error": reason, "status": status, "url": url}))
    sys.exit(1)


def hidden_fields(page):
    """Every hidden input of the page's form, by name (an input without a value is sent empty)."""
    fields = {}
    for tag in re.findall(r'<input[^>]*type="hidden"[^>]*>', page):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[html.unescape(name.group(1))] = html.unescape(value.group(1)) if value else ""
    return fields


def main():
    url, stop_prefix, cookie_file = sys.argv[1:4]
    credentials = sys.argv[4:6]
    jar = http.cookiejar.MozillaCookieJar(cookie_file)
    try:
        jar.load(ignore_discard=True, ignore_expires=True)
    except FileNotFoundError:
        pass
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirects)
    signed_in = False
    body = None
    for _ in range(20):
        if url.startswith(stop_prefix):
            jar.save(ignore_discard=True, ignore_expires=True)
            print(json.dumps({"redirect": url, "signedIn": signed_in}))
            return
        request = urllib.request.Request(url, data=body)
        body = None
        try:
            response = opener.open(request, timeout=20)
            status, headers, page = response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            status, headers, page = error.code, error.headers, error.read().decode(errors="replace")
        if status in (301, 302, 303, 307, 308):
            url = urllib.parse.urljoin(url, headers["Location"])
            continue
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status == 200 and token and 'name="password"' in page:
            if not credentials or signed_in:
                fail("the login form was shown" + (" again: wrong password?" if signed_in else ""), status, url)
            action = re.search(r'<form method="post" action="([^"]*)"', page).group(1)
            fields = {"csrfmiddlewaretoken": token.group(1), "username": credentials[0], "password": credentials[1],
                      "next": html.unescape(re.search(r'name="next" value="([^"]*)"', page).group(1))}
            url = urllib.parse.urljoin(url, html.unescape(action))
            body = urllib.parse.urlencode(fields).encode()
            signed_in = True
            continue
        if status == 200 and token and 'id="authorizationForm"' in page and 'name="allow"' in page:
            # The provider's "Confirm Logout" page: press its Logout button, as the person would.
            fields = dict(hidden_fields(page), allow="Logout")
            body = urllib.parse.urlencode(fields).encode()
            continue
        fail("the server answered without a redirect", status, url)
    fail("too many redirects", None, url)


if __name__ == "__main__":
    main()
