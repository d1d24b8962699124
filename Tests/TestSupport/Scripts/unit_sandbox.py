"""Runs a command under a systemd service unit's seccomp sandboxing, as a user manager would (python3-seccomp).

    unit_sandbox.py [--kill] UNIT_FILE -- COMMAND [ARGUMENT...]

Reads the unit's [Service] sandboxing options and installs each as its own seccomp filter the way systemd does
(src/shared/seccomp-util.c), then execs COMMAND (same pid, descriptors kept: it can sit under socket_activate.py):
SystemCallFilter= (an allow list, less the ~ lists; groups expanded by `systemd-analyze syscall-filter`),
SystemCallErrorNumber=, SystemCallArchitectures=native, RestrictAddressFamilies=, RestrictNamespaces=,
MemoryDenyWriteExecute=, LockPersonality=, RestrictRealtime=, RestrictSUIDSGID= and NoNewPrivileges=. An option
this script does not apply fails it, so the unit never claims a restriction the tests did not run the agent under.
With --kill a call outside the allow list kills the process whatever SystemCallErrorNumber= says: a test sees every
such call, where EPERM could be swallowed.
"""
import errno
import os
import socket
import stat
import subprocess
import sys

import seccomp

# Options that are not sandboxing (or that no filter expresses) and so need nothing here.
NOT_SANDBOXING = {"Type", "ExecStart", "Restart", "UMask", "Environment", "EnvironmentFile"}
CLONE_NEW = 0x00000080 | 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
# Systemd allows these whatever the list says: the process must be able to exec its command and to exit.
ALWAYS_ALLOWED = ["execve", "exit", "exit_group", "getrlimit", "rt_sigreturn", "sigreturn"]


def service_options(path):
    options = []
    section = None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "Service":
            key, value = line.split("=", 1)
            options.append((key.strip(), value.strip()))
    return options


def group_members(name, seen=None):
    """The system calls of a `@group` (nested groups expanded), or the name itself."""
    if not name.startswith("@"):
        return {name}
    seen = seen if seen is not None else set()
    seen.add(name)
    listing = subprocess.run(["systemd-analyze", "syscall-filter", name], check=True, capture_output=True, text=True).stdout
    members = set()
    for word in listing.split("\n")[1:]:
        word = word.strip()
        if not word or word.startswith("#"):
            continue
        members |= group_members(word, seen) if word.startswith("@") and word not in seen else {word}
    return members


def add(filter_, action, name, *arguments):
    try:
        filter_.add_rule(action, name, *arguments)
    except (RuntimeError, ValueError):
        pass  # a system call this architecture does not have (systemd skips those too)


def syscall_filter(assignments, error_number):
    allowed = None
    for value in assignments:
        denying = value.startswith("~")
        names = set().union(*(group_members(word) for word in value.lstrip("~").split()))
        if denying:
            allowed = (allowed - names) if allowed is not None else None
            if allowed is None:
                raise SystemExit("unit_sandbox.py: a deny-only SystemCallFilter= is not handled")
        else:
            allowed = (allowed or set()) | names
    deny = seccomp.ERRNO(error_number) if error_number else seccomp.KILL_PROCESS
    filter_ = seccomp.SyscallFilter(defaction=deny)
    for name in sorted(allowed | set(ALWAYS_ALLOWED)):
        add(filter_, seccomp.ALLOW, name)
    return filter_


def address_families(value):
    permitted = {getattr(socket, name) for name in value.split()}
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for family in range(0, 64):
        if family not in permitted:
            add(filter_, seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, family))
    return filter_


def no_namespaces():
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for bit in range(32):
        if CLONE_NEW & (1 << bit):
            add(filter_, seccomp.ERRNO(errno.EPERM), "unshare", seccomp.Arg(0, seccomp.MASKED_EQ, 1 << bit, 1 << bit))
            add(filter_, seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, 1 << bit, 1 << bit))
    add(filter_, seccomp.ERRNO(errno.EPERM), "setns")
    # clone3's flags are in memory a filter cannot read: systemd answers ENOSYS, and glibc falls back to clone.
    add(filter_, seccomp.ERRNO(errno.ENOSYS), "clone3")
    return filter_


def no_write_execute():
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    writable_executable = 0x2 | 0x4  # PROT_WRITE | PROT_EXEC
    add(filter_, seccomp.ERRNO(errno.EPERM), "mmap",
        seccomp.Arg(2, seccomp.MASKED_EQ, writable_executable, writable_executable))
    for name in ("mprotect", "pkey_mprotect"):
        add(filter_, seccomp.ERRNO(errno.EPERM), name, seccomp.Arg(2, seccomp.MASKED_EQ, 0x4, 0x4))
    add(filter_, seccomp.ERRNO(errno.EPERM), "shmat", seccomp.Arg(2, seccomp.MASKED_EQ, 0o100000, 0o100000))
    return filter_


def locked_personality():
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    add(filter_, seccomp.ERRNO(errno.EPERM), "personality", seccomp.Arg(0, seccomp.NE, 0))  # PER_LINUX only
    return filter_


def no_realtime():
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for policy in (1, 2, 6):  # SCHED_FIFO, SCHED_RR, SCHED_DEADLINE
        add(filter_, seccomp.ERRNO(errno.EPERM), "sched_setscheduler", seccomp.Arg(1, seccomp.EQ, policy))
    return filter_


def no_setuid_files():
    filter_ = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for bit in (stat.S_ISUID, stat.S_ISGID):
        for name, mode_argument in (("chmod", 1), ("fchmod", 1), ("fchmodat", 2), ("creat", 1)):
            add(filter_, seccomp.ERRNO(errno.EPERM), name, seccomp.Arg(mode_argument, seccomp.MASKED_EQ, bit, bit))
        for name, flags_argument in (("open", 1), ("openat", 2)):
            add(filter_, seccomp.ERRNO(errno.EPERM), name, seccomp.Arg(flags_argument, seccomp.MASKED_EQ, os.O_CREAT, os.O_CREAT),
                seccomp.Arg(flags_argument + 1, seccomp.MASKED_EQ, bit, bit))
    return filter_


def main():
    arguments = sys.argv[1:]
    kill = arguments[0] == "--kill"
    arguments = arguments[1:] if kill else arguments
    unit, command = arguments[0], arguments[arguments.index("--") + 1:]
    options = service_options(unit)
    values = {}
    for key, value in options:
        values.setdefault(key, []).append(value)

    error_number = None
    if "SystemCallErrorNumber" in values:
        error_number = getattr(errno, values.pop("SystemCallErrorNumber")[-1])
    if kill:
        error_number = None
    filters = []
    if values.pop("SystemCallArchitectures", ["native"])[-1] != "native":
        raise SystemExit("unit_sandbox.py: only SystemCallArchitectures=native is handled")
    if "RestrictAddressFamilies" in values:
        filters.append(address_families(values.pop("RestrictAddressFamilies")[-1]))
    switches = {"RestrictNamespaces": no_namespaces, "MemoryDenyWriteExecute": no_write_execute,
                "LockPersonality": locked_personality, "RestrictRealtime": no_realtime,
                "RestrictSUIDSGID": no_setuid_files, "NoNewPrivileges": None}
    for key, make in switches.items():
        if key in values and values.pop(key)[-1] == "yes" and make is not None:
            filters.append(make())
    # The allow list last: it may not allow seccomp() itself.
    if "SystemCallFilter" in values:
        filters.append(syscall_filter(values.pop("SystemCallFilter"), error_number))
    unhandled = set(values) - NOT_SANDBOXING
    if unhandled:
        raise SystemExit(f"unit_sandbox.py: {', '.join(sorted(unhandled))} not handled: teach this script, or the "
                         "test would claim a restriction it did not apply")

    # libseccomp sets no_new_privs as it loads the first filter (NoNewPrivileges=, which an unprivileged filter
    # needs anyway); native architecture only, any other killed (SystemCallArchitectures=native).
    for filter_ in filters:
        filter_.load()
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
