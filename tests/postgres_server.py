"""A real PostgreSQL 15 for the tests, started in a temporary directory on 127.0.0.1 and removed after.

``initdb`` and ``pg_ctl`` from the machine's PostgreSQL (``/usr/lib/postgresql/15/bin``, or
``EFFBATCH_PG_BIN``); PostgreSQL refuses to run as root, so as root the server runs as ``nobody``.
Where the binaries are missing, ``reason_absent`` says so and the PostgreSQL tests are skipped with it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

BIN = Path(os.environ.get("EFFBATCH_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "effbatch"


def reason_absent() -> str | None:
    """Why no PostgreSQL can be started here, or None."""
    missing = [name for name in ("initdb", "pg_ctl", "postgres") if not (BIN / name).is_file()]
    if missing:
        return f"PostgreSQL 15 is not installed here (no {', '.join(missing)} in {BIN}; set EFFBATCH_PG_BIN)"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One server per test session; ``new_database()`` gives each test a database of its own."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="effbatch-pg-"))
        self.port = _free_port()
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.directory, "nobody", "nogroup")
            self._as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as_user, *command], check=True, capture_output=True, timeout=120, cwd=self.directory)

    def start(self) -> PostgresServer:
        data = str(self.directory / "data")
        self._run(str(BIN / "initdb"), "-D", data, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-h 127.0.0.1 -p {self.port} -k '' -F -c max_connections=200"
        self._run(str(BIN / "pg_ctl"), "-D", data, "-l", str(self.directory / "log"), "-w", "-o", options, "start")
        return self

    def stop(self) -> None:
        try:
            self._run(str(BIN / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres", autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
