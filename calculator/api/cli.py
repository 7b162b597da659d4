"""Command line: score a hand JSON from a file or stdin, with the API's schemas and errors.

    gostop score hand.json          # or: gostop score - < hand.json
    gostop score --batch hands.json # a {"hands": [...]} batch
    gostop serve                    # development server on 127.0.0.1:8000

Exit status: 0 scored, 2 the input was refused (the problem+json body goes to stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

import orjson
from marshmallow import ValidationError

from calculator.errors import GoStopError


def _problem(status: int, title: str, detail: str, errors: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    return body


def score(stream: TextIO, *, batch: bool = False) -> tuple[int, dict[str, Any]]:
    """Score the JSON read from ``stream``: (exit status, response or problem body)."""
    from calculator.api import create_app
    from calculator.api.errors import domain_problem, validation_problem
    from calculator.api.views import score_hand

    try:
        body = json.load(stream)
    except json.JSONDecodeError as error:
        return 2, _problem(400, "Bad Request", f"the input is not valid JSON: {error}")
    app = create_app({"access_log": False})
    path = "/v1/gostop/hands/batch" if batch else "/v1/gostop/hands"
    with app.test_request_context(path, method="POST"):
        try:
            if batch:
                client = app.test_client()
                response = client.post(path, json=body)
                return (0 if response.status_code == 200 else 2), response.get_json()
            return 0, score_hand(body)
        except ValidationError as error:
            return 2, validation_problem(error)
        except GoStopError as error:
            return 2, domain_problem(error)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``gostop`` command."""
    parser = argparse.ArgumentParser(prog="gostop", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    scoring = commands.add_parser("score", help="score a hand JSON (file or - for stdin)")
    scoring.add_argument("file", nargs="?", default="-")
    scoring.add_argument("--batch", action="store_true", help="the input is a batch")
    scoring.add_argument("--compact", action="store_true", help="one-line JSON output")
    serve = commands.add_parser("serve", help="run the development server")
    serve.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if args.command == "serve":
        from calculator.api import create_app

        create_app().run(host="127.0.0.1", port=args.port)
        return 0
    if args.file == "-":
        status, body = score(sys.stdin, batch=args.batch)
    else:
        with open(args.file, encoding="utf-8") as stream:
            status, body = score(stream, batch=args.batch)
    text = orjson.dumps(body, option=0 if args.compact else orjson.OPT_INDENT_2).decode()
    print(text, file=sys.stdout if status == 0 else sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
