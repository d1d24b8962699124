"""`authvault login --paste` on a pseudo-terminal, with a person's part played by browser.py on "another machine":
waits for the authorize URL on the screen, signs in with it (stopping at the redirect, which nothing serves), and
pastes the URL the browser ended on at the prompt.

    pty_paste.py COOKIE_FILE USERNAME PASSWORD -- COMMAND [ARGS...]

Prints {"screen": what the terminal showed, "status": exit status, "pasted": whether the URL was typed}.
"""
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    cookie_file, username, password = sys.argv[1:4]
    command = sys.argv[sys.argv.index("--") + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    screen, pasted, status = b"", False, None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                break
            screen += chunk
        text = screen.decode(errors="replace")
        if not pasted and "Redirect URL: " in text:
            url = re.search(r"(http://\S+/authorize/?\?\S+)", text).group(1)  # Cognito's path or DOT's own
            redirect_uri = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["redirect_uri"]
            origin = redirect_uri.split("/callback")[0] + "/"
            result = subprocess.run([sys.executable, os.path.join(HERE, "browser.py"), url, origin, cookie_file, username, password],
                                    capture_output=True, text=True, timeout=60)
            redirect = json.loads(result.stdout)["redirect"]
            time.sleep(0.05)  # the prompt has turned echo off
            os.write(fd, redirect.encode() + b"\r")
            pasted = True
        finished, code = os.waitpid(pid, os.WNOHANG)
        if finished:
            status = code
            break
    if status is None:
        _, status = os.waitpid(pid, 0)
    while True:  # what is left on the terminal
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    print(json.dumps({"screen": screen.decode(errors="replace"), "status": os.waitstatus_to_exitcode(status), "pasted": pasted}))


if __name__ == "__main__":
    main()
