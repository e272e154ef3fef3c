"""Job launchers that hand a command string to a bash on every host: the string is the run's launch line.

Each is recognised by what it alone has, and its string read as its remote bash reads it – a shell of its own on
another machine, none of the launching script's variables or functions (what the local shell expanded inside the
quotes is already in the string; what is left, ``\\$VAR``, is the remote's and unknown here):

- MaxText's ``multihost_runner.py`` (AI-Hypercomputer/maxtext ``tools/orchestration/multihost_runner.py``
  ``execute_main_command``): ``--COMMAND`` joined with `` && `` after ``cd``/``tar``, run by
  ``gcloud compute tpus tpu-vm ssh --command`` on each worker;
- MaxText's ``multihost_job.py`` (``write_startup_script``): ``--COMMAND`` written into the TPU VMs' bash startup
  script, ``((… {args.COMMAND}) 2>&1) >> log``;
- xpk's ``xpk workload create --command …`` (AI-Hypercomputer/xpk ``src/xpk/core/docker_container.py``): the
  container runs ``bash -c`` over ``({command}) & PID=$!``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

#: The program's name as it starts (a renamed copy, ``multihost_runner_orig.py``, is still the runner) → its flag.
_MAXTEXT = (("multihost_runner", "--COMMAND"), ("multihost_job", "--COMMAND"))


def remote_command(words: Sequence[str]) -> str | None:
    """The command string a job launcher in ``words`` runs on each host, or None where ``words`` start no such
    launcher (the launcher's own ``python``/``python3 -u`` before it)."""
    for index, word in enumerate(words[:4]):
        name = PurePosixPath(word).name
        rest = words[index + 1 :]
        if name in ("xpk", "xpk.py"):
            return _flag(rest, "--command") if tuple(rest[:2]) == ("workload", "create") else None
        stem = name.removesuffix(".py").rsplit(".", 1)[-1]  # ``-m tools.orchestration.multihost_runner`` too
        flag = next((f for prefix, f in _MAXTEXT if stem.startswith(prefix)), None)
        if flag is not None:
            return _flag(rest, flag)
    return None


def _flag(words: Sequence[str], flag: str) -> str | None:
    """The value of ``flag`` (``--flag=value`` or ``--flag value``) as argparse takes it, the last one winning."""
    found = None
    for index, word in enumerate(words):
        if word.startswith(f"{flag}="):
            found = word[len(flag) + 1 :]
        elif word == flag and index + 1 < len(words):
            found = words[index + 1]
    return found
