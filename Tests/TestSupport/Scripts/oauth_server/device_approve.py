"""The person's part of a device sign-in (RFC 8628), in a second HTTP session of its own: signs in to Django's
login form, enters the user code at django-oauth-toolkit's verification page, then accepts or denies the device.

    python3 device_approve.py VERIFICATION_URI USER_CODE USERNAME PASSWORD accept|deny

Prints {"status": the final page's HTTP status, "url": where it ended} and exits 0; on anything unexpected prints
{"error": ...} and exits 1.
"""
import http.cookiejar
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


def fail(reason):
    print(json.dumps({"error": reason}))
    sys.exit(1)


def main():
    verification_uri, user_code, username, password, action = sys.argv[1:6]
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def fetch(url, fields=None):
        body = urllib.parse.urlencode(fields).encode() if fields is not None else None
        try:
            with opener.open(urllib.request.Request(url, data=body), timeout=20) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, url, error.read().decode(errors="replace")

    def csrf(page):
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if not token:
            fail("no CSRF token on the page")
        return token.group(1)

    # The verification page asks for a sign-in first: Django's login form, then back to the page.
    status, url, page = fetch(verification_uri)
    if 'name="password"' in page:
        next_value = re.search(r'name="next" value="([^"]*)"', page).group(1)
        login = urllib.parse.urljoin(url, re.search(r'<form method="post" action="([^"]*)"', page).group(1))
        status, url, page = fetch(login, {"csrfmiddlewaretoken": csrf(page), "username": username,
                                          "password": password, "next": next_value})
    if 'name="user_code"' not in page:
        fail(f"no user-code form at {url} (HTTP {status})")
    status, url, page = fetch(url, {"csrfmiddlewaretoken": csrf(page), "user_code": user_code})
    if 'name="action"' not in page:
        fail(f"the user code was not accepted (HTTP {status} at {url})")
    status, url, page = fetch(url, {"csrfmiddlewaretoken": csrf(page), "action": action})
    print(json.dumps({"status": status, "url": url}))


if __name__ == "__main__":
    main()
