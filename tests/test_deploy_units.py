"""deploy/gostop.service, gostop-purge.service/.timer and gostop.env: the service can start
as installed and the nightly purge works on the same ledger with the same settings.

With DynamicUser and ProtectSystem=strict the whole file system is read-only to the service,
the checkout included: it may write only its StateDirectory and RuntimeDirectory. So its
working directory and its SQLite file must be in the state directory, and the purge must run
as the same user, there, with the same environment file (the TTL above all: README.md)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def unit(name: str) -> dict[str, str]:
    """A unit's settings (the last of each name), comments left out."""
    found: dict[str, str] = {}
    for line in (DEPLOY / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip()
    return found


def environment(path: Path) -> dict[str, str]:
    """The environment file as sh reads it (cron: set -a; . file), which must be what
    systemd reads: NAME=value lines."""
    script = f"set -a; . {path}; env -0"
    out = subprocess.run(
        ["env", "-i", "sh", "-c", script], check=True, capture_output=True, text=True
    ).stdout
    read = dict(item.split("=", 1) for item in out.split("\0") if item.startswith("GOSTOP_"))
    systemd = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            systemd[key] = value
    assert read == systemd
    return read


def test_the_service_writes_only_where_it_may() -> None:
    service = unit("gostop.service")
    assert service["DynamicUser"] == "yes"
    assert service["ProtectSystem"] == "strict"
    state = "/var/lib/" + service["StateDirectory"]
    assert service["WorkingDirectory"] == state  # a relative SQLite path lands there
    settings = environment(DEPLOY / "gostop.env")
    assert service["EnvironmentFile"].lstrip("-") == "/etc/gostop/env"
    url = settings["GOSTOP_DATABASE_URL"]
    assert url == f"sqlite:///{state}/gostop.sqlite3"
    assert "GOSTOP_TABLE_TTL_DAYS" in settings  # the purge requires it
    assert "ReadWritePaths" not in service  # nothing else is written


def test_the_purge_runs_as_the_service_on_its_ledger() -> None:
    service, purge = unit("gostop.service"), unit("gostop-purge.service")
    for key in ("User", "DynamicUser", "StateDirectory", "WorkingDirectory", "EnvironmentFile"):
        assert purge[key] == service[key], key
    assert purge["ExecStart"].endswith("/gostop db purge")
    venv = service["ExecStart"].split()[0].removesuffix("/python")  # the service's venv
    assert purge["ExecStart"] == f"{venv}/gostop db purge"
    assert unit("gostop-purge.timer")["OnCalendar"]


def test_the_cron_lines_read_the_service_settings() -> None:
    """Each documented cron line sources the environment file the service reads."""
    lines = [
        line
        for doc in (ROOT / "README.md", DEPLOY / "README.md")
        for line in doc.read_text().splitlines()
        if re.match(r"[0-9*]", line) and "gostop db purge" in line
    ]
    assert lines
    for line in lines:
        assert ". /etc/gostop/env &&" in line, line
        assert "/opt/gostop/.venv/bin/gostop db purge" in line, line
