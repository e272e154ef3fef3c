"""effbatch-bot's console on a pseudo-terminal, read with deadlines: a test fails in seconds, never hangs."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from bot_process import BIN


def read_until(terminal: int, done: Callable[[bytes], bool], seconds: float) -> bytes:
    """What the pseudo-terminal shows until ``done`` says so, it closes, or ``seconds`` pass; never blocks longer."""
    output = b""
    deadline = time.monotonic() + seconds
    while not done(output) and (left := deadline - time.monotonic()) > 0:
        if not select.select([terminal], [], [], left)[0]:
            break
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the terminal closes with the process
            break
        if not chunk:
            break
        output += chunk
    return output


def wait_for_exit(pid: int, seconds: float) -> int | None:
    """The child's wait status once it has ended, or None if it still runs after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            return status
        time.sleep(0.02)
    return None


@contextlib.contextmanager
def console_on_a_terminal(
    env: dict[str, str], cwd: Path, ctrl_c: signal.Handlers = signal.SIG_DFL
) -> Iterator[tuple[int, int]]:
    """``effbatch-bot`` with a pseudo-terminal as its controlling terminal: (pid, the terminal's fd); killed after.

    ``ctrl_c`` is the SIGINT disposition it starts with, whatever this test process inherited (``SIG_IGN``: as a
    shell without job control starts a background command)."""
    pid, terminal = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, ctrl_c)
        os.chdir(cwd)
        os.execve(str(BIN / "effbatch-bot"), [str(BIN / "effbatch-bot")], env)
    try:
        yield pid, terminal
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)


def run_on_a_terminal(args: list[str], env: dict[str, str], cwd: Path, seconds: float = 30) -> tuple[int | None, bytes]:
    """``args`` run with a pseudo-terminal as stdin, stdout and stderr, as typed at a prompt: (wait status, shown)."""
    pid, terminal = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execve(args[0], args, env)
    try:
        shown = read_until(terminal, lambda _: False, seconds=seconds)
        return wait_for_exit(pid, seconds=seconds), shown
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)
