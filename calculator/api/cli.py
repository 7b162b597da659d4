"""Command line: the API's scoring endpoints on a JSON file or stdin, with its errors.

    gostop score hand.json          # POST /v1/gostop/hands (or: gostop score - < hand.json)
    gostop score --batch hands.json # POST /v1/gostop/hands/batch
    gostop score --lang en hand.json  # labels and sentences in English (ko, en or all)
    gostop balance hand.json        # POST /v1/balance/hands
    gostop settle session.json      # POST /v1/settlements
    gostop serve [--host H] [--port P]  # development server (127.0.0.1:8000)
    gostop db upgrade               # apply the tables' database migrations (GOSTOP_DATABASE_URL)
    gostop db purge                 # delete the tables idle past GOSTOP_TABLE_TTL_DAYS (cron;
                                    # the setting is required: the service's own)
    gostop db rebuild               # derive every table's rows again from its events

Each command sends the input through the service itself (in-process, no network), so it
reads JSON with the same loader and answers with the same body or problem as over HTTP,
less what only HTTP has (the request path and id). Exit status: 0 answered, 2 the input
was refused (the problem+json body goes to stderr) or a GOSTOP_* setting the service
checks at start is wrong (one line on stderr), 3 the database of a ``gostop db`` command
cannot be reached (one line on stderr).
"""

from __future__ import annotations

import argparse
import codecs
import os
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO
from urllib.parse import urlencode

import orjson

from calculator.api.config import SettingsError
from calculator.errors import counted

# command → (endpoint, help)
ENDPOINTS = {
    "score": ("/v1/gostop/hands", "score and settle a Go-Stop hand"),
    "balance": ("/v1/balance/hands", "score a 120/80/60 balance hand"),
    "settle": ("/v1/settlements", "settle a session: totals and the fewest transfers"),
}
BATCH = "/v1/gostop/hands/batch"
_HTTP_ONLY = ("instance", "request_id")
DATABASE_DOWN = 3  # exit status of a gostop db command whose database cannot be reached


def run(path: str, data: bytes) -> tuple[int, dict[str, Any]]:
    """POST ``data`` to ``path`` of the service: (exit status, answer or problem body)."""
    from calculator.api import create_app

    client = create_app({"access_log": False, "migrate_on_start": False}).test_client()
    response = client.post(path, data=data, content_type="application/json")
    body: dict[str, Any] = orjson.loads(response.data)
    if response.status_code == 200:
        # a batch's refused hands carry the problem a request would, path and id too
        for item in body.get("results", ()) if path.startswith(BATCH) else ():
            if "problem" in item:
                _strip_http(item["problem"])
        return 0, body
    _strip_http(body)
    pointers = {(error.get("pointer"), error.get("code")) for error in body.get("errors", ())}
    endpoint = path.partition("?")[0]
    if endpoint == ENDPOINTS["score"][0] and any(at == "/hands" for at, _ in pointers):
        body["detail"] += "; the input is a batch? gostop score --batch"
    elif (
        endpoint == BATCH
        and ("/hands", "required") in pointers
        and ("/players", "unknown_field") in pointers
    ):
        body["detail"] += "; the input is one hand? gostop score, without --batch"
    return 2, body


def _strip_http(problem: dict[str, Any]) -> None:
    """A problem without what only HTTP has: the request's path and id."""
    for key in _HTTP_ONLY:
        problem.pop(key, None)


def _port(text: str) -> int:
    """A TCP port, 1 to 65535 (argparse's ``type``)."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (1 to 65535)")
    return port


def _file_problem(name: str, error: OSError | UnicodeError) -> dict[str, Any]:
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    name, shown = ("stdin", "stdin") if name == "-" else (name, repr(name))
    return {
        "type": "about:blank",
        "title": "Cannot read the input",
        "status": 400,
        "detail": f"cannot read {shown}: {reason}; give a JSON file, or - for stdin",
        "errors": [{"pointer": "", "code": "bad_request", "detail": f"{name}: {reason}"}],
    }


def read(name: str, stdin: BinaryIO) -> bytes:
    """The bytes of a file, or of stdin for ``-`` (OSError when it cannot be read,
    UnicodeError when it is UTF-16). A UTF-8 byte order mark (Windows editors and
    PowerShell write one) is left for the service's reader, which skips it in a file and
    in an HTTP body alike (:func:`calculator.api.http.read_json`)."""
    if name == "-":
        data = stdin.read()
    else:
        with open(name, "rb") as stream:
            data = stream.read()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UnicodeError("the file is UTF-16 (as Windows PowerShell writes): save it as UTF-8")
    return data


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``gostop`` command: a GOSTOP_* setting the service refuses at
    start (:class:`calculator.api.config.SettingsError`: a number that is not one, a
    negative TTL, a rate, log level or database URL it cannot use) is one line and
    status 2, not a traceback. A reader that stops early (``gostop score x | head``)
    ends the command quietly, as it ends any Unix tool: status 141, as for SIGPIPE.
    Ctrl-C (most often at a command waiting on a terminal for its JSON) ends it quietly
    too: status 130, as for SIGINT. An answer that cannot be written (a full disk) is one
    line and status 1."""
    try:
        return _command(argv)
    except SettingsError as error:
        print(f"gostop: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _stdout_to_nowhere()
        return 128 + 13
    except KeyboardInterrupt:
        print(file=sys.stderr)  # the line after the terminal's ^C
        return 128 + 2
    except _UnwritableError as error:
        _stdout_to_nowhere()
        print(f"gostop: cannot write the answer: {error}", file=sys.stderr)
        return 1


class _UnwritableError(Exception):
    """The answer could not be written to stdout (a full disk, a device that refuses)."""


def _stdout_to_nowhere() -> None:
    """What is left to write goes nowhere: Python flushes stdout at exit, which would
    raise again (the recipe of the signal module's documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _database_command(action: str) -> int:
    """``gostop db ACTION``; a database that cannot be reached is one line on stderr and
    status 3 (:data:`DATABASE_DOWN`), not a traceback: cron mails it, a script tests it."""
    from calculator.api.errors import DATABASE_DOWN as DOWN
    from calculator.api.table_store import purge_database, rebuild_database, upgrade_database

    if action == "purge":
        _require_ttl(os.environ)
    import sqlite3

    from sqlalchemy.exc import DatabaseError

    # OSError: a file not made; DatabaseError: a file that is no database ("file is not a
    # database": corrupt, or another program's), said in one line as well
    down: tuple[type[BaseException], ...] = (*DOWN, DatabaseError, sqlite3.DatabaseError, OSError)
    try:
        if action == "purge":
            print(f"purged {counted(purge_database(), 'idle table')}")
        elif action == "rebuild":
            rebuilt, refused = rebuild_database()
            print(f"rebuilt {counted(rebuilt, 'table')}")
            for table_id, why in refused.items():
                print(f"gostop: table {table_id} left as it was: {why}", file=sys.stderr)
            return 2 if refused else 0
        else:
            print(f"migrated {upgrade_database()}")
    except down as error:
        print(f"gostop: {_unreachable(error)}", file=sys.stderr)
        return DATABASE_DOWN
    return 0


def _unreachable(error: BaseException) -> str:
    """One line: which database (its password hidden) and the driver's first words."""
    import sqlalchemy

    from calculator.api.config import Settings
    from calculator.api.errors import DATABASE_DOWN as DOWN
    from calculator.store import DEFAULT_URL

    raw = Settings.load().database_url or DEFAULT_URL
    try:
        url = sqlalchemy.engine.make_url(raw).render_as_string(hide_password=True)
    except sqlalchemy.exc.ArgumentError:
        url = "GOSTOP_DATABASE_URL"
    reason = str(getattr(error, "orig", None) or error).strip().splitlines() or [
        type(error).__name__
    ]
    # a database that answered but is unusable (a corrupt file) is no connection problem
    verb = "cannot be reached" if isinstance(error, (*DOWN, OSError)) else "cannot be used"
    return f"the database {url} {verb}: {reason[0]}"


def _require_ttl(environ: Mapping[str, str]) -> None:
    """``gostop db purge`` deletes for good, so it never guesses the TTL: a cron line
    without the service's GOSTOP_TABLE_TTL_DAYS (its default 30 while the service keeps
    tables 90 days, or forever with 0) would delete tables the service still serves."""
    if not environ.get("GOSTOP_TABLE_TTL_DAYS", "").strip():
        raise SettingsError(
            "gostop db purge needs GOSTOP_TABLE_TTL_DAYS, the service's own (0: tables never "
            "expire): run it with the service's environment file "
            '(README.md, "Deleting and expiry")'
        )


def _command(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="gostop", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for command, (_path, text) in ENDPOINTS.items():
        sub = commands.add_parser(command, help=text)
        sub.add_argument("file", nargs="?", default="-", help="a JSON file, or - for stdin")
        sub.add_argument("--compact", action="store_true", help="one-line JSON output")
        if command != "settle":  # the answers with labels, sentences and a rule set
            sub.add_argument(
                "--lang", choices=["ko", "en", "all"], help="labels and sentences (default ko)"
            )
            sub.add_argument(
                "--full-ruleset", action="store_true", help="echo every option of the rule set"
            )
        if command == "score":
            sub.add_argument("--batch", action="store_true", help="the input is a batch")
    serve = commands.add_parser("serve", help="run the development server")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to reach it from a phone")
    serve.add_argument("--port", type=_port, default=8000)
    database = commands.add_parser("db", help="the tables' database (GOSTOP_DATABASE_URL)")
    database.add_argument(
        "action",
        choices=["upgrade", "purge", "rebuild"],
        help="upgrade: apply every migration; purge: delete the tables idle past "
        "GOSTOP_TABLE_TTL_DAYS; rebuild: derive every table's rows again from its events "
        "(after an upgrade that changed a rule; with the service stopped)",
    )
    args = parser.parse_args(argv)
    if args.command == "db":
        return _database_command(args.action)

    if args.command == "serve":
        import logging

        from calculator.api import create_app
        from calculator.api.http import RedactingFilter

        # werkzeug's request lines carry the query: no join code in them
        logging.getLogger("werkzeug").addFilter(RedactingFilter())
        create_app().run(host=args.host, port=args.port)
        return 0
    path = BATCH if getattr(args, "batch", False) else ENDPOINTS[args.command][0]
    query = {"lang": getattr(args, "lang", None)}
    if getattr(args, "full_ruleset", False):
        query["full_ruleset"] = "true"
    given = {key: value for key, value in query.items() if value is not None}
    if given:
        path += "?" + urlencode(given)
    if args.file == "-" and sys.stdin.isatty():  # typed without a file: say what it waits for
        print(
            f"gostop: reading JSON from the terminal (end with Ctrl-D), or: gostop "
            f"{args.command} FILE",
            file=sys.stderr,
        )
    try:
        data = read(args.file, sys.stdin.buffer)
    except (OSError, UnicodeError) as error:
        status, body = 2, _file_problem(args.file, error)
    else:
        status, body = run(path, data)
    text = orjson.dumps(body, option=0 if args.compact else orjson.OPT_INDENT_2).decode()
    out = sys.stdout if status == 0 else sys.stderr
    try:
        print(text, file=out)
        out.flush()  # a full disk says so here, not at exit
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _UnwritableError(error.strerror or str(error)) from None
    return status


if __name__ == "__main__":
    sys.exit(main())
