"""The gostop command: a hand JSON from a file or stdin, the API's schemas and errors."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from calculator.api.cli import main, run
from tests_support import W13


def test_score_from_bytes() -> None:
    status, body = run("/v1/gostop/hands", json.dumps(W13).encode())
    assert status == 0
    assert body["net"] == {"A": 9, "B": -3, "C": -6}


def test_bad_input_gives_the_same_problem_as_the_api(client: Any) -> None:
    bad = json.dumps({**W13, "stake": 2.5}).encode()
    status, body = run("/v1/gostop/hands", bad)
    assert status == 2
    assert body["errors"][0] == {
        "pointer": "/stake",
        "code": "invalid_type",
        "detail": "expected a whole number (an integer)",
    }
    over_http = client.post("/v1/gostop/hands", data=bad, content_type="application/json")
    expected = {
        k: v for k, v in over_http.get_json().items() if k not in ("instance", "request_id")
    }
    assert body == expected  # the same problem, less what only HTTP has
    status, body = run("/v1/gostop/hands", b"{nope")
    assert (status, body["status"], body["errors"][0]["code"]) == (2, 400, "malformed_json")


def test_a_missing_file_is_a_clean_problem(tmp_path: Path, capsys: Any) -> None:
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert problem["status"] == 400
    assert "nope.json" in problem["detail"]


def test_balance_and_settle_commands(tmp_path: Path, capsys: Any) -> None:
    from calculator.api.examples import BALANCE_EXAMPLES, SETTLEMENT_EXAMPLES

    hand = tmp_path / "balance.json"
    hand.write_text(json.dumps(BALANCE_EXAMPLES["three_players"]["value"]), encoding="utf-8")
    assert main(["balance", str(hand), "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["net"] == {"A": 200, "B": -150, "C": -50}  # W33
    session = tmp_path / "session.json"
    example = next(iter(SETTLEMENT_EXAMPLES.values()))["value"]
    session.write_text(json.dumps(example), encoding="utf-8")
    assert main(["settle", str(session)]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert sum(totals.values()) == 0


def test_file_argument_and_exit_status(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8")
    assert main(["score", str(path), "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["net"]["A"] == 9


def test_a_file_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: Any) -> None:
    """Windows editors and PowerShell start a UTF-8 file with a byte order mark."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert main(["score", str(path), "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["net"]["A"] == 9


def test_a_bad_setting_is_one_line_and_status_2(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8")
    url_said = (
        "GOSTOP_DATABASE_URL is not a database the service runs on: give "
        "sqlite:///path/to/file.sqlite3 or postgresql+psycopg://user:password@host/db"
    )
    for name, value, said in [
        ("GOSTOP_TABLE_TTL_DAYS", "abc", "GOSTOP_TABLE_TTL_DAYS is 'abc': give a whole number"),
        (
            "GOSTOP_TABLE_TTL_DAYS",
            "-1",
            "GOSTOP_TABLE_TTL_DAYS is '-1': give 0 (tables never expire) or more",
        ),
        ("GOSTOP_JOIN_RATE", "lots", "GOSTOP_JOIN_RATE is 'lots': give a rate such as 20/minute"),
        (
            "GOSTOP_LOG_LEVEL",
            "verbose",
            "GOSTOP_LOG_LEVEL is 'verbose': give DEBUG, INFO, WARNING, ERROR or CRITICAL",
        ),
        (
            "GOSTOP_RATE_STORAGE",
            "bogus://x",
            "GOSTOP_RATE_STORAGE is 'bogus://x': unknown storage scheme : bogus://x "
            "(give memory://, or redis://host:6379 with the redis package installed)",
        ),
        (  # limits' own check of its prerequisite (not installed here: not a dependency);
            # the password never printed
            "GOSTOP_RATE_STORAGE",
            "redis://:secret@cache:6379",
            "GOSTOP_RATE_STORAGE is 'redis://***@cache:6379': 'redis' prerequisite not "
            "available. A minimum version of 3.0 is required "
            "(give memory://, or redis://host:6379 with the redis package installed)",
        ),
        ("GOSTOP_DATABASE_URL", "nonsense", url_said),
        ("GOSTOP_DATABASE_URL", "mysql://u:secret@db/gostop", url_said),  # never its password
    ]:
        if value.startswith("redis:") and importlib.util.find_spec("redis") is not None:
            continue  # installed: the storage would work
        monkeypatch.setenv(name, value)
        assert main(["score", str(path)]) == 2
        assert capsys.readouterr().err == f"gostop: {said}\n"
        monkeypatch.delenv(name)
    monkeypatch.setenv("GOSTOP_LOG_LEVEL", "debug")  # a level's name, in any case
    assert main(["score", str(path)]) == 0


def test_a_utf16_file_is_a_clean_problem(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows PowerShell 5's ``>`` and Out-File write UTF-16 with a byte order mark."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-16")
    assert main(["score", str(path)]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert problem["status"] == 400
    assert "save it as UTF-8" in problem["detail"]
    # the same on stdin, named so (it said "cannot read '-'")
    utf16 = io.TextIOWrapper(io.BytesIO(json.dumps(W13).encode("utf-16")))
    monkeypatch.setattr(sys, "stdin", utf16)
    assert main(["score", "-"]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert problem["detail"].startswith("cannot read stdin: the file is UTF-16")


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


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    """``gostop score --batch x | head -c 100``: no BrokenPipeError traceback."""
    path = tmp_path / "batch.json"
    path.write_text(json.dumps({"hands": [W13] * 200}), encoding="utf-8")
    command = subprocess.Popen(
        [sys.executable, "-m", "calculator.api.cli", "score", "--batch", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None
    assert command.stderr is not None
    assert len(command.stdout.read(100)) == 100
    command.stdout.close()  # as head does once it has its bytes
    errors = command.stderr.read().decode()
    assert command.wait(timeout=60) == 141
    assert errors == ""


def test_an_answer_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    """``gostop score x > /dev/full``: one line and status 1, not an OSError traceback."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8")
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "calculator.api.cli", "score", str(path)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == "gostop: cannot write the answer: No space left on device\n"


def test_ctrl_c_at_a_command_waiting_on_the_terminal_ends_it_quietly() -> None:
    """``gostop score`` typed without a file waits on the terminal: it says what for, and
    Ctrl-C ends it with status 130 and no KeyboardInterrupt traceback."""
    import os
    import pty
    import select
    import signal
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.execv(sys.executable, [sys.executable, "-m", "calculator.api.cli", "score"])
    said = b""
    deadline = time.monotonic() + 60
    while b"Ctrl-D" not in said and time.monotonic() < deadline:
        if select.select([fd], [], [], 1)[0]:
            said += os.read(fd, 1024)
    assert b"gostop: reading JSON from the terminal (end with Ctrl-D)" in said
    os.write(fd, b"\x03")  # Ctrl-C, as typed
    _pid, status = os.waitpid(pid, 0)
    try:
        while select.select([fd], [], [], 0.2)[0]:
            said += os.read(fd, 1024)
    except OSError:
        pass  # the terminal is gone with the child
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert b"Traceback" not in said


def test_batch(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"hands": [W13, W13]}), encoding="utf-8")
    assert main(["score", "--batch", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["succeeded"] == 2


def test_a_batchs_refused_hand_and_a_batch_without_batch_say_nothing_of_http(
    tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"hands": [W13, {"players": []}]}), encoding="utf-8")
    assert main(["score", "--batch", str(path)]) == 0
    refused = json.loads(capsys.readouterr().out)["results"][1]
    assert refused["status"] == 422
    assert refused["problem"]["errors"]  # the problem a request would get…
    assert "instance" not in refused["problem"]  # …less the request's path and id
    assert "request_id" not in refused["problem"]
    assert main(["score", str(path)]) == 2  # a batch given as a hand
    problem = json.loads(capsys.readouterr().err)
    assert problem["detail"].endswith("the input is a batch? gostop score --batch")
    assert "instance" not in problem
    one = tmp_path / "hand.json"
    one.write_text(json.dumps(W13), encoding="utf-8")
    assert main(["score", "--batch", str(one)]) == 2  # a hand given as a batch
    problem = json.loads(capsys.readouterr().err)
    assert problem["detail"].endswith("the input is one hand? gostop score, without --batch")


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_serve_refuses_a_port_that_is_none(port: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", port])
    assert stopped.value.code == 2
    assert "is not a port (1 to 65535)" in capsys.readouterr().err


def test_the_language_and_the_full_ruleset(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(W13), encoding="utf-8")
    assert main(["score", str(path), "--compact"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert default["payments"][1]["text"] == {"ko": "3 × 2 (광박: 승자 광 3장, 광 없음) = 6점"}
    assert "options" not in default["ruleset"]
    assert main(["score", str(path), "--compact", "--lang", "all", "--full-ruleset"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert set(both["payments"][1]["text"]) == {"ko", "en"}
    assert both["ruleset"]["options"]["go_formula"] == "korean_pow2"


def test_purge_never_guesses_the_ttl(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    """A cron line without the service's GOSTOP_TABLE_TTL_DAYS would purge with the
    default 30 days the tables of a service that keeps them 90 days, or forever (0)."""
    import time

    from calculator.store import EventRow, Store, TokenRow

    url = f"sqlite:///{tmp_path}/night.sqlite3"
    monkeypatch.setenv("GOSTOP_DATABASE_URL", url)
    monkeypatch.delenv("GOSTOP_TABLE_TTL_DAYS", raising=False)
    store = Store(url)
    store.migrate()
    store.clock = lambda: time.time() - 40 * 86400  # type: ignore[method-assign]
    assert store.create(
        table_id="a" * 32,
        join_code="AAAAAAAA",
        created_at=store.clock(),
        event=EventRow(seq=1, type="created", by="scorer", at="t", body="{}"),
        summary="{}",
        tokens=[TokenRow(hash="a" * 64, role="scorer", label="scorer")],
    )
    assert main(["db", "purge"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("gostop: gostop db purge needs GOSTOP_TABLE_TTL_DAYS")
    assert store.table_ids() == ["a" * 32]  # idle 40 days, kept
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "0")  # the service's: forever
    assert main(["db", "purge"]) == 0
    assert store.table_ids() == ["a" * 32]
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "30")
    assert main(["db", "purge"]) == 0
    assert store.table_ids() == []
    store.dispose()


def test_a_cp949_file_says_where_and_to_save_it_as_utf8(
    tmp_path: Path, capsys: Any, client: Any
) -> None:
    """Korean Windows editors save CP949: "광" is the bytes B1 A4, not UTF-8. The CLI and
    HTTP read JSON in one place (calculator.api.http), so both say the same."""
    text = '{\n  "players": [{"id": "광"}]\n}'
    data = text.encode("cp949")
    # line 2 is '  "players": [{"id": "광"}]': 22 characters before 광, so column 23, and
    # 2 bytes of line 1 before it: offset 24 (the 25th byte)
    assert data[24:26] == b"\xb1\xa4"
    path = tmp_path / "hand.json"
    path.write_bytes(data)
    assert main(["score", str(path)]) == 2
    problem = json.loads(capsys.readouterr().err)
    said = (
        "the body is not UTF-8: byte 0xB1 at line 2, column 23 (byte 25) is not valid "
        "UTF-8 — a Korean Windows editor may have saved it as CP949 or UTF-16: save it as UTF-8"
    )
    assert problem["detail"] == said
    assert problem["errors"][0]["code"] == "malformed_json"
    answer = client.post("/v1/gostop/hands", data=data, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["detail"] == said


def test_an_unreachable_database_is_one_line_and_status_3(capsys: Any, monkeypatch: Any) -> None:
    from bench.server import free_port
    from calculator.api.cli import DATABASE_DOWN

    assert DATABASE_DOWN == 3
    url = f"postgresql+psycopg://gostop:secret@127.0.0.1:{free_port()}/gostop"  # nobody there
    monkeypatch.setenv("GOSTOP_DATABASE_URL", url)
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "30")
    for action in ("upgrade", "purge", "rebuild"):
        assert main(["db", action]) == 3
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert err.startswith("gostop: the database postgresql+psycopg://gostop:***@127.0.0.1:")
        assert "cannot be reached: " in err
        assert "secret" not in err


def test_a_file_that_is_no_database_is_one_line_and_status_3(
    capsys: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    # a corrupt SQLite file (or another program's) answers, so it is not "unreachable":
    # one line that says it cannot be used, not a traceback
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"this is no SQLite file " * 400)
    monkeypatch.setenv("GOSTOP_DATABASE_URL", f"sqlite:///{path}")
    assert main(["db", "upgrade"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err == f"gostop: the database sqlite:///{path} cannot be used: file is not a database\n"


def test_gostop_db_rebuild_counts_its_tables_in_english(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    """One table rebuilt is "rebuilt 1 table" (errors.counted), not "1 tables"."""
    from calculator.api import create_app

    url = f"sqlite:///{tmp_path}/night.sqlite3"
    app = create_app({"access_log": False, "database_url": url})
    created = app.test_client().post("/v1/tables", json={"roster": ["A", "B"], "stake": 100})
    assert created.status_code == 201
    app.extensions["gostop_store"].dispose()
    monkeypatch.setenv("GOSTOP_DATABASE_URL", url)
    assert main(["db", "rebuild"]) == 0
    assert capsys.readouterr().out == "rebuilt 1 table\n"
