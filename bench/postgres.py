"""A throwaway PostgreSQL cluster on loopback, for tests and benchmarks.

    with Cluster() as cluster:       # initdb in a temporary directory, pg_ctl start
        cluster.url                  # postgresql+psycopg://gostop@127.0.0.1:<port>/gostop

The cluster runs as an unprivileged user (PostgreSQL refuses to run as root: when we are
root it runs as ``nobody``), listens on 127.0.0.1 only, on a free port, with trust
authentication for local connections, and is stopped and deleted on exit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.server import free_port

DEBIAN_BINS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def find_bin(tool: str) -> str | None:
    """``initdb``/``pg_ctl``/``postgres`` on PATH, or in Debian's versioned directory."""
    found = shutil.which(tool)
    if found:
        return found
    for directory in DEBIAN_BINS:
        if (directory / tool).exists():
            return str(directory / tool)
    return None


class Cluster:
    """initdb + pg_ctl in a temporary directory; ``url`` names its database.

    ``durable``: PostgreSQL's default durability (``fsync`` on: every commit waits for its
    WAL to reach the disk), as benchmarks must measure (SPEC §8). Without it ``fsync`` is
    off: a throwaway cluster for tests has nothing to keep across a crash.
    """

    def __init__(self, *, durable: bool = False) -> None:
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("initdb/pg_ctl not found (apt-get install postgresql)")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="gostop-pg-"))
        self.data = self.root / "data"
        self.url = f"postgresql+psycopg://gostop@127.0.0.1:{self.port}/gostop"
        self.durable = durable
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "nobody", "--"]
            os.chmod(self.root, 0o777)

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, cwd=self.root)

    def __enter__(self) -> Cluster:
        self._run(self.initdb, "-D", str(self.data), "-U", "gostop", "-A", "trust", "-E", "UTF8")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root}"
        if not self.durable:
            options += " -c fsync=off"
        self._run(
            self.pg_ctl,
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        deadline = time.monotonic() + 30
        import psycopg

        while True:
            try:
                with psycopg.connect(
                    f"host=127.0.0.1 port={self.port} user=gostop dbname=postgres", autocommit=True
                ) as connection:
                    connection.execute("CREATE DATABASE gostop")
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        return self

    def __exit__(self, *_exc: object) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
