"""The attack suite: slow clients and costly bodies against deploy/run, /healthz probed.

bench/attack.py does the attacking (``python -m bench.attack`` prints the same figures
for a longer run, or against the plain gunicorn). The assertions count behaviour: how
many probes were answered, that every kind of attacker really connected.
"""

from __future__ import annotations

import pytest

from bench.attack import SLOW_CLIENTS, Attack
from bench.server import Stack
from tools import require


@pytest.mark.slow  # a 20 s attack: a soak, run by .ci/run's slow phase
def test_slow_clients_and_costly_bodies_do_not_stall_healthz() -> None:
    require("nginx", "apt-get install nginx")
    # Two workers even on a one-core runner: a costly body keeps one busy (a third of a
    # second at most now) while the other answers. A costly request still running at the
    # end would hold gunicorn's graceful stop (20 s): 2 s is enough here.
    env = {"GOSTOP_WORKERS": "2", "GUNICORN_CMD_ARGS": "--graceful-timeout 2"}
    with Stack(env) as stack:
        figures = Attack(port=stack.port, seconds=20).run()
        alive = stack.process.poll() is None
    assert alive, stack.output()
    assert figures["probes"] >= 150, figures  # the prober ran at its pace
    assert figures["answered_share"] >= 0.99, figures
    for kind in SLOW_CLIENTS:
        assert figures["attackers"][kind]["connections"] >= SLOW_CLIENTS[kind], figures
    assert figures["attackers"]["costly"], figures  # at least one costly body was answered
    for outcome in figures["attackers"]["costly"]:  # none was a 5xx (a killed worker)
        assert not outcome.rsplit(": ", 1)[1].startswith("5"), figures
    assert figures["threads_still_running"] == 0, figures
    assert stack.process.returncode == 0, stack.output()  # SIGTERM stopped it cleanly
