"""A browser command for the browser sign-in's negative paths, run by `authvault login --browser-command` with the
authorize URL as its last argument. It signs in at the stand-in with browser.py (as $TEST_BROWSER_USER), then
delivers the redirect to the CLI's loopback listener the way $TEST_BROWSER_MODE says, and writes what each request
got to $TEST_BROWSER_LOG as JSON.

  unruly      first a connection that sends one byte a second, a favicon request and the callback with a wrong
              state; then the real redirect
  deny        no sign-in: the callback with error=access_denied and the request's state
  nonce       the authorize URL's nonce replaced before signing in (the ID token then carries the wrong nonce)
  record      the real redirect, after saving it to $TEST_BROWSER_SAVED
  replay      the code saved by an earlier `record`, with this request's state
  silent      nothing at all (the CLI times out)
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def sign_in(url, redirect_uri):
    origin = redirect_uri.split("/callback")[0] + "/"
    cookies = os.environ["TEST_BROWSER_LOG"] + ".cookies"
    result = subprocess.run([sys.executable, os.path.join(HERE, "browser.py"), url, origin, cookies,
                             os.environ["TEST_BROWSER_USER"], os.environ["TEST_BROWSER_PASSWORD"]],
                            capture_output=True, text=True, timeout=60)
    outcome = json.loads(result.stdout)
    if "redirect" not in outcome:
        raise RuntimeError(f"browser.py stopped: {outcome}")
    return outcome["redirect"]


def slow_connection(host, port, log):
    """Sends a request head one byte a second; the listener's read deadline must cut it off."""
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=30) as connection:
            for byte in b"GET /callback?code=slow HTTP/1.1\r\nHost: x\r\n\r\n":
                connection.sendall(bytes([byte]))
                time.sleep(1)
    except OSError as error:
        log["slowConnection"] = {"closedAfter": round(time.monotonic() - started, 1), "error": type(error).__name__}
        return
    log["slowConnection"] = {"closedAfter": None}


def main():
    url = sys.argv[-1]
    mode = os.environ["TEST_BROWSER_MODE"]
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    redirect_uri, state = query["redirect_uri"], query["state"]
    parts = urllib.parse.urlsplit(redirect_uri)
    log = {"redirectURI": redirect_uri}
    try:
        if mode == "silent":
            pass
        elif mode == "deny":
            log["callback"] = get(f"{redirect_uri}?error=access_denied&error_description=User+cancelled&state={state}")[0]
        elif mode == "replay":
            with open(os.environ["TEST_BROWSER_SAVED"]) as handle:
                old = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(handle.read()).query))
            log["callback"] = get(f"{redirect_uri}?code={old['code']}&state={state}")[0]
        else:
            if mode == "nonce":
                url = url.replace(f"nonce={query['nonce']}", "nonce=not-this-sign-ins-nonce")
            redirect = sign_in(url, redirect_uri)
            if mode == "record":
                with open(os.environ["TEST_BROWSER_SAVED"], "w") as handle:
                    handle.write(redirect)
            if mode == "unruly":
                slow = threading.Thread(target=slow_connection, args=(parts.hostname, parts.port, log))
                slow.start()
                time.sleep(0.5)
                log["favicon"] = get(f"{parts.scheme}://{parts.netloc}/favicon.ico")[0]
                wrong = redirect.replace(f"state={state}", "state=forged")
                log["wrongState"] = get(wrong)[0]
            status, page = get(redirect)
            log["callback"], log["page"] = status, page
            if mode == "unruly":
                slow.join(timeout=40)
    except Exception as error:
        log["error"] = f"{type(error).__name__}: {error}"
    path = os.environ["TEST_BROWSER_LOG"]
    with open(path + ".tmp", "w") as handle:  # renamed into place: the test never reads half of it
        json.dump(log, handle)
    os.rename(path + ".tmp", path)


if __name__ == "__main__":
    main()
