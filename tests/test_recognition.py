"""A run is recognised by the call that decides its batch, not by the names it also sets: a script that calls
``deepspeed.initialize`` is read with DeepSpeed's rules from the config it hands over.

Fixtures in ``tests/data/configs/recognition/`` (written here, each saying what it is shaped like). Their numbers
are DeepSpeed's own: ``deepspeed/__init__.py`` ``initialize`` (microsoft/DeepSpeed at 38327e07, 0.16.5) picks the
config (``config``, else ``config_params``, else ``args.deepspeed_config``; both: assertion; neither: assertion), and
``DeepSpeedConfig._set_batch_related_parameters`` fills the batch triangle (``runtime/config.py``: with train 32 and
micro 4 on 8 GPUs, ``gradient_accumulation_steps = 32 // (4 · 8) = 1``); ``_batch_assertion`` refuses
64 ≠ 2 · 4 · 4. accelerate (huggingface/accelerate ``Accelerator.__init__``: ``gradient_accumulation_steps`` makes
the ``GradientAccumulationPlugin``; ``prepare`` → ``prepare_data_loader`` without ``split_batches`` hands each of the
``num_processes`` processes the DataLoader's own ``batch_size``): B = 16 · 8 · 4 = 512. TRL's DPOTrainer is a
``transformers.Trainer`` (trl/trainer/dpo_trainer.py) whose DataLoader is the Trainer's: B = b · a · world, the
arguments those of the script's own dataclass (``HfArgumentParser`` fills a subclass's defaults, a flag wins).
A nanoGPT-derived trainer that renames its arithmetic is read by nanoGPT's deciding lines (karpathy/nanoGPT
train.py at 3adf61e: ``gradient_accumulation_steps //= ddp_world_size``, ``for micro_step in
range(gradient_accumulation_steps)``, ``torch.randint(len(data) - block_size, (batch_size,))``): 32 // 8 = 4,
B = 16 · 8 · 4 = 512, what Python itself computes from the fixture's own lines with ``WORLD_SIZE=8``.

Run in a throwaway environment (never a dependency): deepspeed 0.16.5 ``DeepSpeedConfig`` with
``deepspeed.comm.get_world_size`` faked (ds_args.json on 8: 32/4/1; the dict on 8: 64/2/4, on 4: refused with
``64 != 2 * 4 * 4``); accelerate 1.11.0 ``Accelerator(gradient_accumulation_steps=4)`` and ``prepare_data_loader(…,
num_processes=8)`` (16 a process); transformers 5.25.0 ``HfArgumentParser`` on the two subclasses with the launch
lines' flags (2/8 and 1/2), trl 1.16.0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.serving.cli import main
from effbatch.core.configs import Check, CheckError, Source, World, check_config
from effbatch.core.configs.base import Instance
from effbatch.core.configs.read.python import read_python

FIXTURES = Path(__file__).parent / "data" / "configs" / "recognition"


def checked(names: tuple[str, ...], world: int | None) -> Check | CheckError:
    given = World(world, f"--world-size {world}") if world else None
    sources = [Source(name, (FIXTURES / name).read_text(encoding="utf-8")) for name in names]
    try:
        return check_config(sources, given)
    except CheckError as error:
        return error


def numbers(check: Check) -> tuple[object, ...]:
    """(framework, d, b, a, B, refused)."""
    return (
        check.framework,
        check.data_parallel,
        check.micro_batch,
        check.accumulation,
        check.global_batch,
        check.refused,
    )


ROWS = [
    # The launch line gives --deepspeed_config: 32 = 4 · 1 · 8 (a = 32 // (4 · 8)); nanoGPT's product would be 3840.
    (
        ("ds_args_train.py", "ds_args.json", "ds_args_launch.sh"),
        None,
        ("deepspeed", 8, 4, 1, 32, False),
        {"deepspeed/filled-in"},
    ),
    # No launch line: the one DeepSpeed JSON among the files is what --deepspeed_config would name, said so.
    (
        ("ds_args_train.py", "ds_args.json"),
        8,
        ("deepspeed", 8, 4, 1, 32, False),
        {"deepspeed/filled-in", "deepspeed/initialize-config-among-files"},
    ),
    # The launch line gives no --deepspeed_config and the call no config: DeepSpeed's assertion.
    (
        ("ds_args_train.py", "ds_args.json", "ds_args_no_config.sh"),
        None,
        ("deepspeed", None, None, None, None, True),
        {"deepspeed/initialize-without-config"},
    ),
    # config= a dict the script builds: 64 = 2 · 4 · 8.
    (("ds_dict_train.py",), 8, ("deepspeed", 8, 2, 4, 64, False), {"deepspeed/world-size-before-launch"}),
    # The same dict on 4 GPUs: 64 ≠ 2 · 4 · 4, refused by _batch_assertion.
    (("ds_dict_train.py",), 4, ("deepspeed", 4, 2, 4, None, True), {"deepspeed/batch-assertion"}),
    # The script's own DataLoader (batch 32) feeds the engine: DeepSpeed counts b = 32 // 2 = 16 on 2 GPUs, 64 train.
    (
        (
            "../../corpus/deepspeed/deepspeedtrial-fashionmnist/ds_train.py",
            "../../corpus/deepspeed/deepspeedtrial-fashionmnist/ds_config.json",
        ),
        2,
        ("deepspeed", 2, 16, 1, 32, False),
        {"deepspeed/filled-in", "deepspeed/initialize-config-among-files", "deepspeed/script-loader-differs"},
    ),
    # config_params= a path: the file of that name among the sources.
    (("ds_path_train.py", "ds_args.json"), 8, ("deepspeed", 8, 4, 1, 32, False), {"deepspeed/filled-in"}),
    # A config in the call and one on the command line: DeepSpeed's assertion.
    (
        ("ds_two_configs_train.py", "ds_two_configs_launch.sh", "ds_args.json"),
        None,
        ("deepspeed", None, None, None, None, True),
        {"deepspeed/initialize-two-configs"},
    ),
]


@pytest.mark.parametrize(("names", "world", "expected", "codes"), ROWS, ids=lambda v: str(v)[:60])
def test_a_script_that_calls_deepspeed_initialize_is_read_with_deepspeeds_rules(
    names: tuple[str, ...], world: int | None, expected: tuple[object, ...], codes: set[str]
) -> None:
    """The config the call hands over decides the batch, as DeepSpeed computes it, with DeepSpeed's findings."""
    check = checked(names, world)
    assert isinstance(check, Check), check
    assert numbers(check) == expected
    assert {f.rule.code for f in check.findings} == codes


UNDECIDED = [
    # The path names a file that is not among the sources.
    (("ds_path_train.py",), "deepspeed_config", "configs/ds_args.json"),
    # json.load at run time, its keys overwritten from argparse: no number is promised.
    (("ds_loaded_train.py", "ds_args.json"), "deepspeed_config", "json.load(fh)"),
    # A PipelineModule: DeepSpeed divides by the data-parallel world of its topology.
    (("ds_pipeline_train.py", "ds_args.json"), "data_parallel", "mpu.get_data_parallel_world_size()"),
    # No launch line and no config among the files.
    (("ds_args_train.py",), "deepspeed_config", "args.deepspeed_config"),
    # A renamed nanoGPT trainer whose micro-batch no line of the script draws: named, not nanoGPT's 12.
    (("renamed_ambiguous.py",), "batch_size", "?"),
]


OWN_LOOPS = [
    # TrainingArguments parsed, a loop of its own: the loader's 16, the Accelerator's 4, 8 processes (the Trainer's
    # rule would say 2 · 8 · 1 = 16 from --per_device_train_batch_size).
    (("acc_own_loop.py", "acc_own_loop.sh"), ("accelerate", 8, 16, 4, 512, False)),
    # A class of its own named Trainer that wraps the Accelerator: still accelerate's loop, 4 · 8 · 2.
    (("acc_own_trainer_class.py", "acc_own_trainer_class.sh"), ("accelerate", 8, 4, 2, 64, False)),
    # An Accelerator only for printing beside the Trainer that trains: the Trainer's 2 · 8 · 4.
    (("acc_with_trainer.py", "acc_with_trainer.sh"), ("huggingface", 8, 2, 4, 64, False)),
]


@pytest.mark.parametrize(("names", "expected"), OWN_LOOPS, ids=lambda v: str(v)[:60])
def test_a_loop_of_its_own_is_accelerates_and_a_trainer_is_the_trainers(
    names: tuple[str, ...], expected: tuple[object, ...]
) -> None:
    """The framework that builds the loop decides: accelerate's Accelerator where no Trainer is built."""
    check = checked(names, None)
    assert isinstance(check, Check), check
    assert numbers(check) == expected


PREFERENCE = [
    # ScriptArguments(TrainingArguments): a 8 by its own default, b 2 from the launch line over its 4, 8 processes.
    (("dpo_own_args.py", "dpo_own_args.sh"), ("trl", 8, 2, 8, 128, False)),
    # RunConfig(BaseConfig(DPOConfig)): b 1 and a 2 from the two own levels, torchrun 2 × 4.
    (("dpo_config_subclass.py", "dpo_config_subclass.sh"), ("trl", 8, 1, 2, 16, False)),
]


@pytest.mark.parametrize(("names", "expected"), PREFERENCE, ids=lambda v: str(v)[:60])
def test_a_dpo_trainer_fed_by_the_repositorys_own_arguments_is_trl(
    names: tuple[str, ...], expected: tuple[object, ...]
) -> None:
    """TRL's preference trainer with the repository's own subclass: TRL, the subclass's defaults, the line's flags."""
    check = checked(names, None)
    assert isinstance(check, Check), check
    assert numbers(check) == expected


def test_a_nanogpt_fork_that_renamed_its_arithmetic_is_still_read() -> None:
    """micro_bs, ctx_len, accum, world: found by the lines that decide them, run as train.py runs under torchrun."""
    check = checked(("renamed_train.py",), 8)
    assert isinstance(check, Check), check
    assert numbers(check) == ("nanogpt", 8, 16, 4, 512, False)
    assert check.seq_len == 512


@pytest.mark.parametrize(("names", "key", "value"), UNDECIDED, ids=lambda v: str(v)[:60])
def test_what_only_the_run_decides_is_named_not_guessed(names: tuple[str, ...], key: str, value: str) -> None:
    """Exit 2 naming the value the run decides, never a number."""
    check = checked(names, 8)
    assert isinstance(check, CheckError)
    assert (check.ctx["key"], check.ctx["value"], check.ctx.get("runtime")) == (key, value, True)


def test_the_terminal_names_the_flag_that_settles_it(capsys: pytest.CaptureFixture[str]) -> None:
    """``effbatch check`` on the script alone: exit 2 and the German answer names ``--deepspeed_config``."""
    code = main(["check", str(FIXTURES / "ds_args_train.py"), "--world-size", "8"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--deepspeed_config" in err


READER = [
    # deepspeed.add_config_arguments adds --deepspeed_config (default None) to the script's parser.
    ((), "deepspeed_config", None),
    (("--deepspeed", "--deepspeed_config", "ds.json"), "deepspeed_config", "ds.json"),
    (("--deepspeed",), "deepspeed", True),
    (("--deepscale_config", "old.json"), "deepscale_config", "old.json"),
]


@pytest.mark.parametrize(("argv", "field", "value"), READER, ids=str)
def test_the_reader_knows_deepspeeds_own_arguments(argv: tuple[str, ...], field: str, value: object) -> None:
    """The namespace deepspeed.initialize is handed holds DeepSpeed's options as argparse would fill them."""
    text = (
        "import argparse\nimport deepspeed\nparser = argparse.ArgumentParser()\n"
        "parser = deepspeed.add_config_arguments(parser)\nargs = parser.parse_args()\n"
        "deepspeed.initialize(args=args)\n"
    )
    script = read_python(text, "train.py", argv=argv)
    namespace = script.called("deepspeed.initialize")[0].keywords["args"].value
    assert isinstance(namespace, Instance)
    assert namespace.fields[field].value == value
