"""Two gunicorn instances behind deploy/run on one PostgreSQL: one is killed under load.

bench/instances.py does the work (``python -m bench.instances`` prints the same figures
for a longer run). Counted, never timed: no read fails (nginx sends a read that met the
dead instance to the other one) but one whose answer the killed instance had begun to
send (its headers passed on, its body never sent: at most the reads in flight), every write key
that succeeded has exactly one hand, and the table holds exactly the hands of the keys
that succeeded.
"""

from __future__ import annotations

import pytest

from bench.instances import IN_FLIGHT, run
from tools import require

pytestmark = pytest.mark.slow


def test_killing_an_instance_under_load_fails_no_read_and_duplicates_no_write(
    postgres_url: str,
) -> None:
    require("nginx", "apt-get install nginx")
    figures = run(database_url=postgres_url, hands=30)
    assert figures["killed"]["workers"] == 2, figures  # the whole instance went down
    assert figures["restarted"], figures
    assert figures["reads"].get("served", 0) >= 100, figures  # the readers ran throughout
    assert figures["reads_failed"] == 0, figures
    assert figures["reads_cut"] <= IN_FLIGHT, figures  # those in flight at the kill, at most
    assert figures["write_keys_given_up"] == 0, figures
    assert figures["write_keys_succeeded"] == figures["write_keys"] == 30, figures
    assert figures["duplicated_hands"] == 0, figures
    assert figures["keys_whose_hand_is_missing"] == 0, figures
    assert figures["distinct_hands_answered"] == figures["write_keys_succeeded"], figures
    assert figures["hands_in_table"] == figures["write_keys_succeeded"], figures
    assert figures["stack_stopped_cleanly"], figures
