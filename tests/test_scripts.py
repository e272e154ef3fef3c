"""Training scripts read as their runs see them: a launch line, a Python script and a config as one run.

Each row is a folder of ``tests/data/scripts/`` (our own files, in the shapes of the frameworks' example scripts:
transformers' ``run_clm.py`` and ``HfArgumentParser``, Lightning's ``Trainer`` + ``DataLoader``, accelerate's
``no_trainer`` examples, TRL's ``sft.py``) and says where its numbers come from: the framework's own classes run
in a throwaway venv outside the repository with the world size faked, nothing of which is committed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import numbers, shown

from effbatch.bot.rendering.checks import problem_text
from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config
from effbatch.core.configs.base import Format
from effbatch.core.configs.read.formats import format_by_content
from effbatch.core.configs.read.reader import parse

SCRIPTS = Path(__file__).parent / "data" / "scripts"


def run(*names: str, world: int | None = None, settings: dict[str, str] | None = None) -> Check:
    sources = [Source(name, (SCRIPTS / name).read_text()) for name in names]
    given = World(world, f"--world-size {world}") if world else None
    return check_config(sources, given, settings=settings)


# (files, framework, (world, d, b, a, B, L), where the numbers come from)
RUNS = [
    (
        ("hf_argparse/launch.sh", "hf_argparse/train.py", "hf_argparse/ds.json"),
        "huggingface",
        (4, 4, 16, 4, 256, None),
        # --batch_size 16 over argparse's default 8; transformers 5.25.0 TrainingArguments(16, 4, deepspeed=ds.json)
        # with world 4: train_batch_size 256, and HfTrainerDeepSpeedConfig fills the three "auto" with 256, 16, 4
    ),
    (
        ("hf_parser/train.sh", "hf_parser/run_clm.py"),
        "huggingface",
        (8, 8, 4, 2, 64, 1024),
        # HfArgumentParser((DataArguments, TrainingArguments)) on the launch line's flags, transformers 5.25.0,
        # world 8: 4 · 2 · 8 = 64; block_size 1024 from the flag over the dataclass's 2048
    ),
    (
        ("lightning_trainer/train.py",),
        "lightning",
        (16, 16, 16, 4, 1024, None),
        # a reported case: Trainer(devices=8, num_nodes=2, accumulate_grad_batches=4) + DataLoader(batch_size=16);
        # lightning's trainer.world_size = num_nodes · devices = 16 (strategies/ddp.py), so 16 · 16 · 4
    ),
    (
        ("lightning_datamodule/run.sh", "lightning_datamodule/train.py"),
        "lightning",
        (4, 4, 8, 2, 64, None),
        # python train.py --gpus 4 --batch-size 8: the DataModule's train_dataloader gets self.batch_size = 8,
        # Trainer(devices=4, accumulate_grad_batches=2) starts 4 processes itself: 8 · 4 · 2
    ),
    (
        ("accelerate_loop/run.sh", "accelerate_loop/train.py"),
        "accelerate",
        (4, 4, 16, 4, 256, None),
        # accelerate launch --num_processes 4: 4 processes; Accelerator(gradient_accumulation_steps=4) and the
        # training DataLoader's batch_size 16 from the script's flags (argparse, Python 3.11): 16 · 4 · 4
    ),
    (
        ("trl_sft/launch.sh", "trl_sft/sft.py"),
        "trl",
        (4, 4, 2, 8, 64, 2048),
        # a reported case: accelerate launch --num_processes 4 sft.py with SFTConfig(2, 8, max_length=2048);
        # trl 0.19.1 / transformers 4.53.3 SFTConfig with world 4: 2 · 8 · 4 = 64
    ),
]


@pytest.mark.parametrize(("files", "framework", "expected"), RUNS, ids=[r[0][0].split("/")[0] for r in RUNS])
def test_a_run_over_files_trains_what_its_framework_computes(
    files: tuple[str, ...], framework: str, expected: tuple[int | None, ...]
) -> None:
    """The launch line, the script and the config read as one run give the framework's own numbers."""
    check = run(*files)
    assert check.framework == framework
    world, data_parallel, micro, accumulation, batch, seq_len = expected
    assert numbers(check)[:6] == (world, data_parallel, micro, accumulation, batch, seq_len)


def test_each_value_says_where_it_came_from_and_what_it_replaced() -> None:
    """„Gelesen“: the launch flag over argparse's default, and the Trainer's value over DeepSpeed's "auto"."""
    check = run("hf_argparse/launch.sh", "hf_argparse/train.py", "hf_argparse/ds.json")
    text = shown(check)
    assert (
        "per_device_train_batch_size = 16 (hf_argparse/train.py:11), --batch_size in der Startzeile "
        "(hf_argparse/launch.sh:1) statt der Vorgabe 8 (hf_argparse/train.py:5)"
    ) in text
    assert "gradient_accumulation_steps = 4 (hf_argparse/train.py:12), Vorgabe von --grad_accum" in text
    assert 'train_batch_size = 256 (TrainingArguments), überschreibt "auto" (hf_argparse/ds.json:1)' in text


def test_a_script_alone_asks_for_what_only_its_start_decides() -> None:
    """HfArgumentParser without a launch line: the batch is the command line's, which nobody gave."""
    with pytest.raises(CheckError) as raised:
        run("hf_parser/run_clm.py", world=8)
    text = problem_text(raised.value)
    assert raised.value.kind is ProblemKind.BAD_VALUE
    assert "steht erst beim Start fest: Es hängt von `--per_device_train_batch_size` ab" in text
    assert "--set per_device_train_batch_size=8" in text
    answered = run("hf_parser/run_clm.py", world=8, settings={"per_device_train_batch_size": "4"})
    assert numbers(answered)[2:5] == (4, 1, 32)  # --set is its command line: the rest are the Trainer's defaults


def test_plain_python_is_one_process() -> None:
    """``python train.py`` (no launcher): one process, so the batch is the script's alone."""
    text = (
        "from transformers import TrainingArguments\nTrainingArguments(per_device_train_batch_size=4, output_dir='x')\n"
    )
    check = check_config([Source("run.sh", "python train.py\n"), Source("train.py", text)])
    assert (check.world.size if check.world else None, check.global_batch) == (1, 4)


def test_a_forced_framework_that_finds_nothing_of_itself_refuses() -> None:
    """``--framework huggingface`` on ``print("hello")``: exit 2 naming what was looked for, not the defaults' 128."""
    with pytest.raises(CheckError) as raised:
        check_config([Source("hello.py", 'print("hello")\n')], World(16, "--world-size 16"), "huggingface")
    assert raised.value.kind is ProblemKind.NOT_THIS_FRAMEWORK
    text = problem_text(raised.value)
    assert "steht nichts, was der Hugging Face Trainer liest" in text
    assert "TrainingArguments(…)" in text


DS_32 = '{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4}'
MEGATRON = "pretrain_gpt.py --micro-batch-size 2 --global-batch-size 64"
# (the launch, the world it starts, where that comes from)
LAUNCHES = [
    # deepspeed/launcher/runner.py parse_inclusion_exclusion: the slots named, here GPUs 2 and 3 of localhost
    ("deepspeed --include localhost:2,3 train.py --deepspeed ds.json", 2),
    ("deepspeed --include worker-0:0,1@worker-1:0,1 train.py --deepspeed ds.json", 4),
    # runner.py: no --include/--exclude/--num_gpus/--num_nodes and no hostfile: CUDA_VISIBLE_DEVICES becomes
    # --include localhost:<devices>, one process per visible GPU
    ("export CUDA_VISIBLE_DEVICES=0,1,2\ndeepspeed train.py --deepspeed ds.json", 3),
    ("CUDA_VISIBLE_DEVICES=4,5 deepspeed train.py --deepspeed ds.json", 2),
    # with --num_gpus given, runner.py ignores CUDA_VISIBLE_DEVICES
    ("export CUDA_VISIBLE_DEVICES=0,1,2,3\ndeepspeed --num_gpus 2 train.py --deepspeed ds.json", 2),
    # torchrun --nproc_per_node gpu: torch.cuda.device_count(), which CUDA_VISIBLE_DEVICES bounds
    (f"CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node gpu {MEGATRON}", 2),
    # a wrapper that exports what the training script reads, then runs it (bash hands exported variables on)
    ("export N_GPUS=4\nbash train.sh", 4),
]


@pytest.mark.parametrize(("launch", "world"), LAUNCHES, ids=[launch.split()[0] for launch, _ in LAUNCHES])
def test_the_launch_context_decides_the_world(launch: str, world: int) -> None:
    """The GPUs a launch line really uses: --include's slots, the visible devices, a wrapper's exports."""
    sources = [Source("run.sh", launch)]
    if "ds.json" in launch:
        sources.append(Source("ds.json", DS_32))
    if "train.sh" in launch:
        sources.append(Source("train.sh", f"torchrun --nproc_per_node $N_GPUS {MEGATRON}\n"))
    check = check_config(sources)
    assert check.world is not None
    assert check.world.size == world


HOSTFILE = "# two nodes\nworker-0 slots=4\nworker-1 slots=4\n"
# (the DeepSpeed launch with --hostfile hosts, the world it starts): deepspeed 0.14.4 launcher/runner.py run here
# outside the repository (_parse_hostfile, parse_inclusion_exclusion, then main()'s --num_nodes and --num_gpus
# filters) on HOSTFILE with these options
HOSTFILE_LAUNCHES = [
    ("deepspeed --hostfile hosts train.py --deepspeed ds.json", 8),
    ("deepspeed --hostfile hosts --num_nodes 1 train.py --deepspeed ds.json", 4),
    ("deepspeed --hostfile hosts --num_gpus 2 train.py --deepspeed ds.json", 4),
    ("deepspeed --exclude=worker-1:0@worker-0:0 --hostfile hosts train.py --deepspeed ds.json", 6),
    ("deepspeed -H hosts --exclude worker-1 train.py --deepspeed ds.json", 4),
    ("deepspeed --hostfile hosts --include worker-1:0,1 train.py --deepspeed ds.json", 2),
    ("deepspeed --hostfile hosts --include worker-0 train.py --deepspeed ds.json", 4),
]


@pytest.mark.parametrize(("launch", "world"), HOSTFILE_LAUNCHES, ids=[str(i) for i in range(len(HOSTFILE_LAUNCHES))])
def test_a_hostfile_among_the_files_gives_the_deepspeed_launchers_world(launch: str, world: int) -> None:
    """``deepspeed --hostfile F`` with F among the files: its hosts' slots, as the launcher filters them."""
    check = check_config([Source("run.sh", launch), Source("ds.json", DS_32), Source("hosts", HOSTFILE)])
    assert check.world is not None
    assert check.world.size == world


def test_a_hostfile_is_read_as_one() -> None:
    """A file of ``host slots=N`` lines is a hostfile, not an unknown format; a bad line makes it none."""
    parsed = parse(Source("hostfile", HOSTFILE))
    assert (parsed.format, parsed.data["hosts"]) == (Format.HOSTFILE, {"worker-0": 4, "worker-1": 4})
    assert format_by_content("worker-0 slots=4\nworker-0 slots=2\n") is None  # runner.py: multiple entries


# torch 2.13 torch/distributed/run.py's parser (allow_abbrev) run here: --nnode=2 is --nnodes 2, --nproc_per=4 is
# --nproc_per_node 4 (the only option starting so), --nproc=4 is ambiguous (argparse exits 2)
TORCHRUN_ABBREVIATIONS = [
    (f"torchrun --nnode=2 --nproc_per_node=7 {MEGATRON}", 14),
    (f"python -m torch.distributed.run --nnodes 2 --nproc_per=4 {MEGATRON}", 8),
]


@pytest.mark.parametrize(("launch", "world"), TORCHRUN_ABBREVIATIONS, ids=["nnode", "nproc_per"])
def test_torchrun_takes_an_unambiguous_prefix_of_its_options(launch: str, world: int) -> None:
    """argparse's allow_abbrev in torchrun's parser: a prefix of exactly one option is that option."""
    check = check_config([Source("run.sh", launch)])
    assert check.world is not None
    assert check.world.size == world


def test_one_visible_gpu_starts_llamafactory_once() -> None:
    """``CUDA_VISIBLE_DEVICES=3 llamafactory-cli train``: one GPU visible and no FORCE_TORCHRUN, so no torchrun
    (LLaMA-Factory's cli.py: torchrun only when more than one device is visible) – one process."""
    yaml = "stage: sft\nfinetuning_type: lora\ntemplate: llama3\nper_device_train_batch_size: 2\n"
    yaml += "gradient_accumulation_steps: 8\ncutoff_len: 2048\n"
    launch = Source("run.sh", "CUDA_VISIBLE_DEVICES=3 llamafactory-cli train sft.yaml\n")
    check = check_config([launch, Source("sft.yaml", yaml)])
    assert (check.world.size if check.world else None, check.global_batch) == (1, 16)
    assert "llamafactory/world-from-machine" not in {f.code for f in check.findings}
