"""Runs a command on a pseudo-terminal and answers its prompts, like a person at a keyboard.

    pty_drive.py SCRIPT.json [--columns N] -- COMMAND [ARGS...]

SCRIPT.json is a list of [prompt-substring, answer] pairs, answered in order; each answer is typed followed by
Enter. What the terminal showed is printed on stdout (as a JSON object with "screen" and "status") when the
command ends. --columns gives the terminal that width (else the pseudo-terminal's 0x0). Echo matters: a secret typed at a no-echo prompt must not appear on the screen.
"""
import fcntl
import json
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    script_path = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1:]
    with open(script_path) as handle:
        steps = json.load(handle)
    options = sys.argv[2:sys.argv.index("--")]
    columns = int(options[options.index("--columns") + 1]) if "--columns" in options else 0
    pid, fd = pty.fork()
    if pid == 0:
        if columns:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
        os.execvp(command[0], command)
    screen = b""
    deadline = time.monotonic() + 60
    step = 0
    consumed = 0
    status = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            screen += chunk
        if step < len(steps):
            prompt, answer = steps[step]
            position = screen.find(prompt.encode(), consumed)
            if position >= 0:
                consumed = position + len(prompt)
                time.sleep(0.05)  # let the program turn echo off before typing
                os.write(fd, answer.encode() + b"\r")
                step += 1
        elif not ready:
            finished, exited = os.waitpid(pid, os.WNOHANG)
            if finished:
                status = exited
                break
    else:
        os.kill(pid, 9)
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                break
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            screen += chunk
    except OSError:
        pass
    if status is None:  # reaped above when it exited before the terminal reported its end
        _, status = os.waitpid(pid, 0)
    print(json.dumps({"screen": screen.decode(errors="replace"), "status": os.waitstatus_to_exitcode(status),
                      "answered": step}))


if __name__ == "__main__":
    main()
