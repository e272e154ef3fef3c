"""A launch line's arguments reach the script that parses them, also where the launched script only hands its run to
a function of another file among the sources (``train_mem.py``: ``from pkg.train import train`` … ``train()``):
Python gives the imported function the same ``sys.argv`` and environment, so the reader reads that file with the
launch line too. Only a call a run of the launched script reaches, to a function the other file defines, counts.

The Trainer's numbers are transformers' own: ``HfArgumentParser`` fills the script's ``TrainingArguments`` subclass
from the flags, and B = b · a · world (``--nproc_per_node 4``): 2 · 8 · 4 = 64. The differential rows run each
fixture with Python itself (argparse, standard library) in a temporary folder and compare what the callee parses.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from effbatch.core.configs import Check, CheckError, Source, check_config
from effbatch.core.configs.base import Instance
from effbatch.core.configs.linking import link
from effbatch.core.configs.read import parse

LAUNCH = "torchrun --nproc_per_node 4 pkg/run.py --per_device_train_batch_size 2 --gradient_accumulation_steps 8\n"
TRAIN = """from dataclasses import dataclass, field

import transformers


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    model_max_length: int = field(default=512)


def train():
    parser = transformers.HfArgumentParser((TrainingArguments,))
    (args,) = parser.parse_args_into_dataclasses()
    transformers.Trainer(args=args).train()


if __name__ == "__main__":
    train()
"""
MIDDLE = """from pkg.train import train


def main():
    train()


if __name__ == "__main__":
    main()
"""

# (the launched script pkg/run.py, further files, the global batch the user gets, else the flag named)
ROWS = [
    # from … import train, called under __main__: train.py parses the launch line's flags
    ("from pkg.train import train\n\nif __name__ == '__main__':\n    train()\n", {}, 64),
    # the module imported under another name, its function called through it
    ("import pkg.train as t\n\nt.train()\n", {}, 64),
    # two files deep: run.py → middle.py's main → train.py's train
    ("from pkg.middle import main\n\nmain()\n", {"pkg/middle.py": MIDDLE}, 64),
    # imported, never called: train.py is no part of this run, its flags a command line nobody gave
    ("from pkg.train import train\n\nprint('nothing')\n", {}, "--per_device_train_batch_size"),
    # called only in a function nothing calls
    ("from pkg.train import train\n\ndef unused():\n    train()\n", {}, "--per_device_train_batch_size"),
    # a local object's method that is merely named like the file and its function: no import, no hand-over
    ("class Runner:\n    def train(self):\n        pass\n\ntrain = Runner()\ntrain.train()\n", {}, "--per_device"),
]


def checked(sources: list[Source]) -> Check | CheckError:
    try:
        return check_config(sources, framework="huggingface")
    except CheckError as error:
        return error


@pytest.mark.parametrize(("run", "more", "answer"), ROWS)
def test_a_launch_line_reaches_the_script_its_program_hands_the_run_to(
    run: str, more: dict[str, str], answer: int | str
) -> None:
    """The Trainer's batch comes from the launch line through a script that calls another file's function."""
    files = {"run.sh": LAUNCH, "pkg/run.py": run, "pkg/train.py": TRAIN, **more}
    result = checked([Source(name, text) for name, text in files.items()])
    if isinstance(answer, int):
        assert isinstance(result, Check), result
        assert (result.global_batch, result.micro_batch, result.accumulation) == (answer, 2, 8)
    else:
        assert isinstance(result, CheckError)
        assert str(result.ctx.get("needs", "")).startswith(answer)


CALLEE = """import argparse
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps(vars(args)))


if __name__ == "__main__":
    main()
"""
ARGV = ("--batch_size", "4")

# The launched script (run.py beside the package pkg/ holding train.py); Python itself decides what train.py parses.
DIFFERENTIAL = [
    "from pkg.train import main\n\nif __name__ == '__main__':\n    main()\n",
    "import pkg.train\n\npkg.train.main()\n",
    "from pkg.train import main as go\n\ngo()\n",
    "from pkg import train\n\ntrain.main()\n",
    "from pkg.train import main\n\nprint('{}')\n",  # imported, not called
    "from pkg.train import main\n\nif False:\n    main()\n",  # a call no run reaches
]


def python_parses(run: str, folder: Path) -> dict[str, object] | None:
    """What train.py's parser returns when Python runs run.py with ``ARGV`` (None: train.py's main never ran)."""
    (folder / "pkg").mkdir()
    (folder / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "pkg" / "train.py").write_text(CALLEE, encoding="utf-8")
    (folder / "run.py").write_text(run, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-E", "-s", "run.py", *ARGV],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, object] = json.loads(done.stdout or "{}")
    return found or None


def reader_parses(run: str) -> dict[str, object] | None:
    """What the reader says train.py's parser returns when a launch line runs run.py (None: not read with it)."""
    sources = [Source("go.sh", f"python run.py {' '.join(ARGV)}\n"), Source("run.py", run)]
    linked = link([parse(source) for source in [*sources, Source("pkg/train.py", CALLEE)]], None)
    callee = linked[-1].python
    assert callee is not None
    if callee.argv is None:
        return None
    namespace = callee.called("vars")[0].args[0].value  # json.dumps(vars(args)): the namespace the parser returned
    assert isinstance(namespace, Instance)
    return {name: given.value for name, given in namespace.fields.items()}


@pytest.mark.parametrize("run", DIFFERENTIAL)
def test_the_hand_over_is_pythons(run: str, tmp_path: Path) -> None:
    """Where Python runs the other file's function with the launch line's sys.argv, the reader reads it so."""
    assert reader_parses(run) == python_parses(run, tmp_path)


HELPERS = """GLOBAL = 64


def ds_config(micro, stage=2, offload=False):
    device = "cpu" if offload else "none"
    zero = {"stage": stage, "offload_optimizer": {"device": device}}
    return {"train_batch_size": GLOBAL, "train_micro_batch_size_per_gpu": micro, "zero_optimization": zero}


if __name__ == "__main__":
    GLOBAL = 1
"""
DS_SCRIPT = """import argparse
import json

import deepspeed
from utils.helpers import ds_config

parser = argparse.ArgumentParser()
parser.add_argument("--micro", type=int, default=1)
args = parser.parse_args()
config = ds_config(args.micro, offload=True)
{change}
print(json.dumps(config))
engine, *_ = deepspeed.initialize(model=None, config=config)
"""

# (what the script changes after the helper built the dict, DeepSpeed's numbers on 4 GPUs: B, b, a)
HELPER_ROWS = [
    # the helper's dict as built: 64 = 2 · 4 · a, a = 8 (runtime/config.py _set_batch_related_parameters)
    ("", (64, 2, 8)),
    # the script overwrites the global batch after the helper (the Yi fine-tuning scripts do)
    ('config["train_batch_size"] = args.micro * 4 * 2', (16, 2, 2)),
]


@pytest.mark.parametrize(("change", "numbers"), HELPER_ROWS)
def test_a_config_built_by_an_imported_helper_is_followed(change: str, numbers: tuple[int, int, int]) -> None:
    """deepspeed.initialize's config built by a helper in another file among the sources gives DeepSpeed's batch."""
    files = {
        "run.sh": "deepspeed --num_gpus 4 train.py --micro 2\n",
        "train.py": DS_SCRIPT.format(change=change),
        "utils/helpers.py": HELPERS,
    }
    result = checked_as([Source(name, text) for name, text in files.items()], "deepspeed")
    assert isinstance(result, Check), result
    assert (result.global_batch, result.micro_batch, result.accumulation) == numbers


def checked_as(sources: list[Source], framework: str) -> Check | CheckError:
    try:
        return check_config(sources, framework=framework)
    except CheckError as error:
        return error


@pytest.mark.parametrize("change", [row[0] for row in HELPER_ROWS])
def test_the_helpers_dict_is_pythons(change: str, tmp_path: Path) -> None:
    """The dict the reader says the imported helper returns is the one Python builds from the same files."""
    script = DS_SCRIPT.format(change=change).split("engine,")[0].replace("import deepspeed\n", "")
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (tmp_path / "train.py").write_text(script, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-E", "-s", "train.py", "--micro", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    sources = [
        Source("run.sh", "python train.py --micro 2\n"),
        Source("train.py", script),
        Source("helpers.py", HELPERS),
    ]
    linked = link([parse(source) for source in sources], None)
    read = linked[1].python
    assert read is not None
    assert read.called("json.dumps")[0].args[0].value == json.loads(done.stdout)
