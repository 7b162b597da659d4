"""A TypeScript client generated from api_spec/openapi.json works against the real server.

openapi-typescript turns the committed document into types, ``tsc --strict`` compiles
clients/typescript/src against them (the smoke script, and bodies the types must refuse),
and the smoke script — openapi-fetch over those types — scores a hand in each entry mode,
a batch, a balance hand and a settlement, and reads a 422, on a live gunicorn on loopback.
The types are generated here, never committed, so the client always matches the document.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench.server import Server
from tools import require

CLIENT = Path(__file__).resolve().parents[1] / "clients" / "typescript"
NODE_HINT = "Node.js 20 or later with npm from the machine image (https://nodejs.org)"


def run(*command: str) -> subprocess.CompletedProcess[str]:
    """Run a command in clients/typescript; fail the test with its output if it fails."""
    done = subprocess.run(
        command, cwd=CLIENT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


def installed() -> bool:
    """Whether node_modules holds exactly what package-lock.json pins.

    ``npm ci`` records the tree it installed in node_modules/.package-lock.json; the same
    packages as the lockfile (less its root entry) mean a repeat run can skip it.
    """
    hidden = CLIENT / "node_modules" / ".package-lock.json"
    if not hidden.exists():
        return False
    wanted = json.loads((CLIENT / "package-lock.json").read_text())["packages"]
    wanted.pop("", None)
    return bool(json.loads(hidden.read_text())["packages"] == wanted)


@pytest.fixture(scope="module")
def client() -> Path:
    """clients/typescript, installed, with types generated from the document and compiled."""
    require("node", NODE_HINT)
    require("npm", NODE_HINT)
    if not installed():
        run("npm", "ci")  # flags in clients/typescript/.npmrc
    run("npm", "run", "--silent", "generate")
    run("npm", "run", "--silent", "build")
    return CLIENT


def test_generated_client_scores_settles_and_reads_a_problem(client: Path) -> None:
    with Server({"GOSTOP_WORKERS": "1", "GOSTOP_ACCESS_LOG": "0"}) as server:
        done = subprocess.run(
            ["node", "build/src/smoke.js", server.base],
            cwd=client,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    # One summary line per scenario, so a scenario that silently stopped running shows.
    scenarios = [line.split(":")[0] for line in done.stdout.splitlines()]
    assert scenarios == [
        "hand (captured)",
        "hand (tally)",
        "hand (declared)",
        "batch",
        "balance hand",
        "settlement",
        "422",
        "cards",
        "ok",
    ]
