"""A small client of the table API for the tests: headers, versions, keys."""

from __future__ import annotations

import itertools
from typing import Any

_KEYS = itertools.count(1)


def new_key() -> str:
    """A fresh Idempotency-Key."""
    return f"test-key-{next(_KEYS):08d}"  # create keys have at least 16 characters


class TableClient:
    """Drives one table through a Flask test client, tracking its version."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["id"]
        self.version = created["version"]
        self.scorer = created["scorer_token"]
        self.viewer = created["viewer_token"]
        self.path = f"/v1/tables/{self.id}"

    @classmethod
    def create(cls, client: Any, body: dict[str, Any]) -> TableClient:
        """Create a table (201 expected)."""
        response = client.post("/v1/tables", json=body)
        assert response.status_code == 201, response.get_json()
        return cls(client, response.get_json())

    def auth(self, token: str | None = None) -> dict[str, str]:
        """The Authorization header of the scorer (or of ``token``)."""
        return {"Authorization": f"Bearer {token or self.scorer}"}

    def write(
        self,
        method: str,
        suffix: str,
        body: Any = None,
        *,
        key: str | None = None,
        expect: int = 200,
    ) -> Any:
        """A write at the current version; the version follows the answer's ETag."""
        headers = {
            **self.auth(),
            "Idempotency-Key": key or new_key(),
            "If-Match": f'"{self.version}"',
        }
        kwargs: dict[str, Any] = {"headers": headers}
        if body is not None:
            kwargs["json"] = body
        response = self.client.open(self.path + suffix, method=method, **kwargs)
        assert response.status_code == expect, response.get_json()
        if response.status_code < 300:
            self.version = int(response.headers["ETag"].strip('"'))
        return response.get_json()

    def step(self, step: dict[str, Any], hand: Any = None) -> Any:
        """One scenario step (tests/data/ledger_scenarios.json)."""
        match step["do"]:
            case "add":
                return self.write("POST", "/hands", hand, expect=201)
            case "correct":
                body = {"hand": hand, "reason": step["reason"]}
                return self.write("PUT", f"/hands/{step['number']}", body)
            case "void":
                return self.write(
                    "POST", f"/hands/{step['number']}/void", {"reason": step["reason"]}
                )
            case "undo" | "redo" | "close":
                return self.write("POST", "/" + step["do"])
        raise ValueError(step["do"])

    def get(self, suffix: str = "", token: str | None = None) -> Any:
        """A read (200 expected)."""
        response = self.client.get(self.path + suffix, headers=self.auth(token))
        assert response.status_code == 200, response.get_json()
        return response.get_json()
