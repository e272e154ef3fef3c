"""Run the installed console scripts as a user or an operator would, on loopback only."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: What every bot a test starts gets unless the test says otherwise: no drain on SIGTERM (a test that
#: stops the bot would wait the default seconds for nothing); the drain's own tests set it. The database's answer
#: is waited for 10 s, not 1: a loaded machine must not turn a profile into "database unavailable" (the stall
#: tests set their own).
#: A test's bot waits for a config check as long as a hang guard: the tests hold what a check answers, and on a
#: loaded machine the check process (at the lowest priority) may wait seconds for the CPU; its own CPU deadline
#: still stops a hostile config.
TEST_DEFAULTS = {"EFFBATCH_DRAIN_SECONDS": "0", "EFFBATCH_DATABASE_SECONDS": "10", "EFFBATCH_CHECK_WALL_SECONDS": "60"}


def clean_env(**overrides: str) -> dict[str, str]:
    """The test process's environment without Slack or effbatch settings, plus ``TEST_DEFAULTS``, ``overrides``."""
    names = ("SLACK_", "EFFBATCH_", "PORT", "LOG_LEVEL", "WEB_CONCURRENCY", "XDG_DATA_HOME")
    env = {k: v for k, v in os.environ.items() if not k.startswith(names)}
    return {**env, **TEST_DEFAULTS, **overrides}


def own_data(env: dict[str, str], cwd: Path) -> dict[str, str]:
    """``env`` with the user's data folder (the default database's) inside ``cwd``, unless it names one: a test's
    bot never shares the database of the user running the tests, nor another test's."""
    return env if "XDG_DATA_HOME" in env else {**env, "XDG_DATA_HOME": str(cwd / "data-home")}


def run_script(name: str, *args: str, env: dict[str, str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / name), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=own_data(env, cwd),
        cwd=cwd,
        timeout=60,
    )


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class BotProcess:
    """``effbatch-bot`` as a subprocess; started, waited for until ``/healthz`` answers, stopped with SIGTERM."""

    def __init__(self, *args: str, env: dict[str, str], cwd: Path, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        # A file, not a pipe: under load the log outgrows a pipe's buffer, and the server would block on it.
        self._log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self._proc = subprocess.Popen(
            [str(BIN / "effbatch-bot"), *args, "--host", "127.0.0.1", "--port", str(port)],
            env=own_data(env, cwd),
            cwd=cwd,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output = ""

    def wait_healthy(self, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                msg = f"effbatch-bot exited with {self._proc.returncode}:\n{self.stop()}"
                raise AssertionError(msg)
            try:
                if get(self.base + "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        msg = f"effbatch-bot not healthy within {timeout} s:\n{self.stop()}"
        raise AssertionError(msg)

    def stop(self) -> str:
        """SIGTERM, wait, and return everything the process printed."""
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if not self._log.closed:
            self._log.seek(0)
            self.output = self._log.read()
            self._log.close()
        return self.output

    def log_so_far(self) -> str:
        """What the process printed until now (it keeps running)."""
        descriptor = self._log.fileno()
        return os.pread(descriptor, os.fstat(descriptor).st_size, 0).decode("utf-8", "replace")

    @property
    def pid(self) -> int:
        return self._proc.pid

    def rss(self) -> int:
        """The process's resident memory in bytes (Linux: /proc)."""
        status = Path(f"/proc/{self._proc.pid}/status").read_text()
        return next(int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:"))

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode


def start_http_bot(api_url: str, cwd: Path, **settings: str) -> BotProcess:
    """``effbatch-bot --mode http`` with the test bot token, ``SIGNING_SECRET`` and the Web API at ``api_url``."""
    from fake_slack import BOT_TOKEN
    from slack_signing import SIGNING_SECRET

    env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET=SIGNING_SECRET, SLACK_API_URL=api_url, **settings)
    process = BotProcess("--mode", "http", env=env, cwd=cwd, port=free_port())
    process.wait_healthy()
    return process
