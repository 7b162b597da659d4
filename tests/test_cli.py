"""The gostop command: a hand JSON from a file or stdin, the API's schemas and errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from calculator.api.cli import main, score
from tests_support import W13


def test_score_from_a_stream() -> None:
    status, body = score(io.StringIO(json.dumps(W13)))
    assert status == 0
    assert body["net"] == {"A": 9, "B": -3, "C": -6}


def test_bad_input_gives_the_same_problem_as_the_api() -> None:
    status, body = score(io.StringIO(json.dumps({**W13, "stake": 2.5})))
    assert status == 2
    assert body["errors"][0] == {
        "pointer": "/stake",
        "code": "invalid_type",
        "detail": "expected a whole number (an integer)",
    }
    status, body = score(io.StringIO("{nope"))
    assert (status, body["status"]) == (2, 400)


def test_file_argument_and_exit_status(tmp_path: Path, capsys) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8")
    assert main(["score", str(path), "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["net"]["A"] == 9


def test_stdin_through_the_installed_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "calculator.api.cli", "score", "-"],
        input=json.dumps({**W13, "outcome": {"type": "stop", "winner": "Z"}}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert json.loads(done.stderr)["errors"][0]["code"] == "unknown_player"


def test_batch(tmp_path: Path, capsys) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"hands": [W13, W13]}), encoding="utf-8")
    assert main(["score", "--batch", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["succeeded"] == 2
