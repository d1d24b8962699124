"""Does for a test what systemd does for a socket unit with Accept=no (python3 stdlib only).

    socket_activate.py [--not-listening] SOCKET_PATH -- COMMAND [ARGUMENT...]

Makes the socket's directory (0700, DirectoryMode=), binds a Unix stream socket there (0600, SocketMode=) and
listens on it, then starts COMMAND with the socket on descriptor 3, LISTEN_FDS=1, LISTEN_FDNAMES and LISTEN_PID
set to the command's own pid (sd_listen_fds(3)). When the command exits, the socket stays open here and the
command is started again on the next connection, as systemd does. Prints "started PID" and "exited PID STATUS"
lines (STATUS negative for a signal). With --not-listening the socket is bound but not listening, and the
command is started once.
"""
import os
import select
import socket
import sys


def main():
    arguments = sys.argv[1:]
    listening = arguments[0] != "--not-listening"
    if not listening:
        arguments = arguments[1:]
    path = arguments[0]
    command = arguments[arguments.index("--") + 1:]

    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    if listening:
        listener.listen(128)

    while True:
        pid = os.fork()
        if pid == 0:
            if listener.fileno() != 3:
                os.dup2(listener.fileno(), 3)
            # Python opens its descriptors close-on-exec; dup2 onto 3 itself would be a no-op.
            os.set_inheritable(3, True)
            environment = dict(os.environ, LISTEN_PID=str(os.getpid()), LISTEN_FDS="1",
                               LISTEN_FDNAMES="authvault-agent.socket")
            os.execve(command[0], command, environment)
        print("started", pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print("exited", pid, os.waitstatus_to_exitcode(status), flush=True)
        if not listening:
            return
        select.select([listener], [], [])


if __name__ == "__main__":
    main()
