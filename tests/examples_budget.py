"""How many examples a Hypothesis test runs: its full count in CI, a tenth of it locally.

CI services set ``CI`` (GitHub Actions, GitLab CI, Buildkite …); there the full counts run. A local
``make test`` on two shared cores stays quick; ``CI=1 make test`` runs everything as CI does. The
profile (registered in ``conftest.py``) names which one ran in pytest's header.
"""

from __future__ import annotations

import os

IN_CI = bool(os.environ.get("CI"))
PROFILE = "ci" if IN_CI else "dev"
#: Locally each test runs this share of its full count, never fewer than ``LOCAL_FLOOR``.
LOCAL_SHARE = 10
LOCAL_FLOOR = 50


def examples(full: int) -> int:
    """``full`` in CI; locally a tenth of it (at least ``LOCAL_FLOOR``)."""
    return full if IN_CI else max(LOCAL_FLOOR, full // LOCAL_SHARE)
