"""OpenRLHF's PPO/GRPO/REINFORCE++ batch (OpenRLHF/OpenRLHF 3c3be6234e0cb353e76bb8019947db9dfe99fca7; its CLI run,
its DeepSpeed lines lifted and executed).

``python3 -m openrlhf.cli.train_ppo_ray --flags``. The flags were renamed on 2026-04-19 (ed62d0e, v0.10.2): flat
``--rollout_batch_size`` became dotted ``--rollout.batch_size``; both spellings are read, never mixed (the
argparse of either era refuses the other's flags: "unrecognized arguments").

- ``--rollout.batch_size`` P counts **prompts** (1024), ``--rollout.n_samples_per_prompt`` n samples each (1):
  a rollout is P · n samples. ``--train.batch_size`` counts **samples** per optimizer step (128), B;
  ``--train.micro_batch_size`` b per GPU (1); ``--train.max_epochs`` passes over a rollout (1).
- ``openrlhf/utils/deepspeed/deepspeed.py:103-117``: ``dp = world // ring_attn_size // ds_tensor_parallel_size``
  and ``accumulated_gradient = train_batch_size * ring_attn_size * ds_tensor_parallel_size // micro // world``;
  DeepSpeed gets ``train_batch_size = train · ring · TP`` (451-456) and asserts it equals micro · GA · world
  (deepspeed/runtime/config.py ``_batch_assertion``, OpenRLHF passes no mpu) — quoted below.
- ``ppo_trainer.py:72-78``: ``max_steps = len(prompts) * n_samples_per_prompt // train.batch_size * num_episodes *
  max_epochs``: k = P · n // B · epochs optimizer steps per rollout (floored).
- train_ppo_ray.py (HEAD 611-615, 711-717) refuses fewer sample batches than actor processes and estimators that
  need n > 1 with n = 1. With ``--train.dynamic_batch_enable`` micro-batches are packed to
  ``--train.max_tokens_per_gpu`` tokens (16192) and DeepSpeed's accumulation is 1 (b and a not fixed).
- World = ``--actor.num_nodes`` · ``--actor.num_gpus_per_node`` (1 · 8); L = ``--data.max_len`` (2048), before
  d0e088b6 ``--prompt_max_len`` + ``--generate_max_len`` (1024 + 1024).
- ``--ds.packing_samples`` (``--packing_samples`` before ed62d0e; forced on by ring attention and the dynamic batch,
  train_ppo_ray.py HEAD 642-651) changes no count: the replay buffer still hands b samples to a micro-batch
  (replay_buffer.py ``make_experience_batch``), the actor lays them end to end without padding (models/actor.py:236,
  287), so a micro-batch holds the b samples' own tokens. train_ppo_ray.py asserts vLLM engines for it
  (``assert args.vllm.num_engines > 0``, HEAD 661; v0.5.0 367): with none given, ``None > 0`` is a TypeError.
- The parser has no positional argument: a word no flag takes (an unquoted ``$VAR`` holding a space, split by bash)
  is refused by argparse ("unrecognized arguments"). Every flag takes one value except the listed ``nargs`` ones
  (and switches, which take none: a word after a switch is not caught here).
"""

from __future__ import annotations

from math import gcd

from effbatch.core.configs.base.results import Check, Derivation, Rollout, World
from effbatch.core.configs.base.rules import Effect, Fix, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, neighbours, world_fix
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.world import main_command, program_flags
from effbatch.core.configs.shell import read_script

ID = "openrlhf"
MODULE = "openrlhf.cli.train_ppo_ray"
#: Each setting: (dotted flag since ed62d0e, flat flag before it, OpenRLHF's default).
FLAGS: dict[str, tuple[str, str, int]] = {
    "prompts": ("--rollout.batch_size", "--rollout_batch_size", 1024),
    "samples": ("--rollout.n_samples_per_prompt", "--n_samples_per_prompt", 1),
    "train": ("--train.batch_size", "--train_batch_size", 128),
    "micro": ("--train.micro_batch_size", "--micro_train_batch_size", 1),
    "rollout_micro": ("--rollout.micro_batch_size", "--micro_rollout_batch_size", 1),
    "epochs": ("--train.max_epochs", "--max_epochs", 1),
    "ring": ("--ds.ring_attn_size", "--ring_attn_size", 1),
    "tp": ("--ds.tensor_parallel_size", "--ds_tensor_parallel_size", 1),
    "nodes": ("--actor.num_nodes", "--actor_num_nodes", 1),
    "gpus": ("--actor.num_gpus_per_node", "--actor_num_gpus_per_node", 8),
    "max_tokens": ("--train.max_tokens_per_gpu", "--train_max_tokens_per_gpu", 16192),
    "max_len": ("--data.max_len", "--max_len", 2048),
}
DYNAMIC = ("--train.dynamic_batch_enable", "--use_dynamic_batch")
PACKING = ("--ds.packing_samples", "--packing_samples")
ENGINES = ("--vllm.num_engines", "--vllm_num_engines")
#: Flags of OpenRLHF's parser that take other than one value (``nargs``; None: any number), in both spellings.
NARGS: dict[str, int | None] = {
    "--target_modules": None,
    "--ds.lora.target_modules": None,
    "--adam_betas": 2,
    "--actor.adam.betas": 2,
    "--critic.adam.betas": 2,
    "--reward_clip_range": 2,
    "--reward.clip_range": 2,
    "--eps_clip_low_high": 2,
    "--actor.eps_clip_low_high": 2,
    "--dynamic_filtering_reward_range": 2,
    "--algo.dynamic_filtering_range": 2,
    "--algo.advantage.is_correction_threshold": 2,
}
ESTIMATOR = ("--algo.advantage.estimator", "--advantage_estimator")
OLD_LENGTHS = ("--prompt_max_len", "--generate_max_len")
MARKERS: tuple[str, ...] = (
    *(f for dotted, flat, _ in FLAGS.values() for f in (dotted, flat)),
    *DYNAMIC,
    *ESTIMATOR,
    *PACKING,
    *ENGINES,
)
#: Estimators that compare samples of one prompt (train_ppo_ray.py HEAD 611-615).
GROUPED = ("rloo", "reinforce_baseline", "group_norm", "dr_grpo")

UNRECOGNIZED = "train_ppo_ray.py: error: unrecognized arguments: {flags}"
SAMPLE_BATCHES = (
    "The number of sample batches must be greater than or equal to the effective number of actor processes."
)
NEEDS_SAMPLES = "{estimator} requires n_samples_per_prompt > 1"
ASSERTION = (
    "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step *"
    " world_size {train} != {micro} * {accumulation} * {world}"
)
ZERO = "Gradient accumulation steps: 0 has to be greater than 0"
GENERATE = (
    "--rollout.vllm_generate_batch_size > --rollout.batch_size requires --train.async_enable (over-sampling needs"
    " async queue to buffer extra batches)."
)
GENERATE_FLAG, ASYNC_FLAG = "--rollout.vllm_generate_batch_size", "--train.async_enable"
PACKING_VLLM = "Only support `--packing_samples` with vLLM."
PACKING_NONE = "'>' not supported between instances of 'NoneType' and 'int'"

DATA_PARALLEL = "openrlhf/data-parallel"  # d = GPUs // ring // TP
ACCUMULATION = "openrlhf/accumulation"  # a = train · ring · TP // b // GPUs
STEPS = "openrlhf/optimizer-steps"  # k = P · n // train · epochs
SEQUENCES = "openrlhf/sequences"  # P · n
LENGTH = "openrlhf/length"  # L = prompt_max_len + generate_max_len


@context
class Mixed:
    flags: str


@context
class SampleBatches:
    batches: int
    processes: int


@context
class NeedsSamples:
    estimator: str


@context
class Assertion:
    train: int
    micro: int
    world: int


@context
class Floored:
    sequences: int
    train: int
    steps: int


@context
class DropLast:
    share: int
    micro: int
    dropped: int


@context
class Dynamic:
    bound: int


@context
class Defaults:
    settings: str


@context
class Generate:
    generate: int
    prompts: int


@context
class Stray:
    words: str


@context
class Packing:
    micro: int


@context
class Engines:
    flag: str


@context
class Mesh:
    gpus: int
    ring: int
    tp: int


MIXED_RULE = Rule("openrlhf/flag-spellings-mixed", Effect.REFUSED, Mixed)
SAMPLE_BATCHES_RULE = Rule("openrlhf/sample-batches-below-processes", Effect.REFUSED, SampleBatches)
NEEDS_SAMPLES_RULE = Rule("openrlhf/estimator-needs-samples", Effect.REFUSED, NeedsSamples)
ASSERTION_RULE = Rule("openrlhf/deepspeed-batch-assertion", Effect.REFUSED, Assertion)
FLOORED_RULE = Rule("openrlhf/steps-floored", Effect.PITFALL, Floored)
DROP_LAST_RULE = Rule("openrlhf/drop-last", Effect.PITFALL, DropLast)
DYNAMIC_RULE = Rule("openrlhf/dynamic-batch", Effect.NOTE, Dynamic)
DEFAULTS_RULE = Rule("openrlhf/defaults", Effect.NOTE, Defaults)
GENERATE_RULE = Rule("openrlhf/generate-batch-without-async", Effect.REFUSED, Generate)
STRAY_RULE = Rule("openrlhf/unrecognized-arguments", Effect.REFUSED, Stray)
PACKING_RULE = Rule("openrlhf/packing", Effect.NOTE, Packing)
PACKING_VLLM_RULE = Rule("openrlhf/packing-needs-vllm", Effect.REFUSED, Engines)
#: deepspeed.py:103-107: ``init_device_mesh("cuda", (GPUs // ring // TP, ring, TP))``: no mesh without one replica.
MESH_RULE = Rule("openrlhf/model-parallel-above-gpus", Effect.REFUSED, Mesh)
RULES = (
    MIXED_RULE,
    SAMPLE_BATCHES_RULE,
    NEEDS_SAMPLES_RULE,
    ASSERTION_RULE,
    FLOORED_RULE,
    DROP_LAST_RULE,
    DYNAMIC_RULE,
    DEFAULTS_RULE,
    GENERATE_RULE,
    STRAY_RULE,
    PACKING_RULE,
    PACKING_VLLM_RULE,
    MESH_RULE,
)
#: Settings whose default decides the batch without a word, said when a command leaves them out.
SHOWN_DEFAULTS = ("prompts", "samples", "train", "micro", "nodes", "gpus")


def detect(parsed: Parsed) -> bool:
    """``openrlhf.cli.train_ppo_ray`` on a command line, or its rollout flags (either spelling)."""
    if parsed.format is not Format.SHELL or parsed.script is None:
        return False
    inner = _inner(parsed).script
    words = [word for command in (inner.commands if inner else []) for word in command.words]
    if MODULE in words or any(word.endswith("train_ppo_ray.py") for word in words):
        return True
    rollout = {*FLAGS["prompts"][:2], *FLAGS["samples"][:2]}
    return bool(rollout & set(program_flags(parsed, MARKERS)))


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    values = _Flags(reading, _inner(next((p for p in sources if detect(p)), sources[0])))
    p, n, train, micro, epochs = (values.number(key) for key in ("prompts", "samples", "train", "micro", "epochs"))
    ring, tp = values.number("ring"), values.number("tp")
    dynamic = values.switch(DYNAMIC)
    length = _length(reading, values)
    world = reading.world(values.world(world))
    if values.defaulted:
        reading.add(DEFAULTS_RULE(Defaults(", ".join(f"`{flag} {value}`" for flag, value in values.defaulted))))
    data_parallel = world.size // ring // tp
    reading.step(DATA_PARALLEL, (world.size, ring, tp), data_parallel)
    if data_parallel == 0:
        reading.add(MESH_RULE(Mesh(world.size, ring, tp), fix=world_fix(ring * tp)))
    reading.step(SEQUENCES, (p, n), p * n)
    _cli(reading, values, (p, n, values.number("rollout_micro"), data_parallel))
    _packing(reading, values, ring > 1 or dynamic, None if dynamic else micro)
    accumulation = None if dynamic else _deepspeed(reading, values, (train, ring * tp, micro), world.size)
    steps = p * n // train * epochs
    reading.step(STEPS, (p, n, train, epochs), steps)
    if (p * n) % train:
        reading.add(FLOORED_RULE(Floored(p * n, train, p * n // train)))
    bound = _dynamic(reading, values) if dynamic else None
    if not dynamic and data_parallel and (p * n) % data_parallel == 0 and (p * n // data_parallel) % micro:
        share = p * n // data_parallel
        reading.add(DROP_LAST_RULE(DropLast(share, micro, share % micro)))
    if length is not None and not any(f.effect is Effect.REFUSED for f in reading.findings):
        reading.step(Derivation.T_PRODUCT, (train, length), train * length)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=None if dynamic else micro,
        accumulation=accumulation,
        global_batch=train,
        seq_len=length,
        rl=Rollout(p, n, steps if steps else None, token_bound=bound),
    )


def _inner(parsed: Parsed) -> Parsed:
    """The script itself, or the command a word of it runs (``srun … bash -c "ray job submit -- python3 -m
    openrlhf.cli.train_ppo_ray …"``, OpenRLHF's SLURM example), lines still counted in the file."""
    if parsed.script is None:
        return parsed
    for command in parsed.script.commands:
        for word in command.words:
            if MODULE in word and any(space in word for space in " \n\t"):
                return Parsed(parsed.source, Format.SHELL, script=read_script(word))
    return parsed


def _length(reading: Reading, values: _Flags) -> int | None:
    """L = ``--data.max_len`` (prompt + response); before d0e088b6 ``--prompt_max_len`` + ``--generate_max_len``."""
    if values.era_old and any(flag in values.found for flag in OLD_LENGTHS):
        prompt, response = (values.flag(flag) or 1024 for flag in OLD_LENGTHS)
        reading.step(LENGTH, (prompt, response), prompt + response)
        return prompt + response
    return values.number("max_len")


def _cli(reading: Reading, values: _Flags, numbers: tuple[int, int, int, int]) -> None:
    """train_ppo_ray.py's own asserts after parsing: the other era's flags, sample batches, grouped estimators."""
    p, n, rollout_micro, processes = numbers
    if stray := _stray(values.parsed):
        words = " ".join(stray)
        reading.add(STRAY_RULE(Stray(words), message=UNRECOGNIZED.format(flags=words)))
    if values.mixed:
        flags = " ".join(values.mixed)
        reading.add(MIXED_RULE(Mixed(flags), message=UNRECOGNIZED.format(flags=flags)))
    estimator = values.text(ESTIMATOR)
    if estimator in GROUPED and n == 1:
        fixed = values.fix("samples", 2, 4, 8)
        reading.add(
            NEEDS_SAMPLES_RULE(NeedsSamples(estimator), message=NEEDS_SAMPLES.format(estimator=estimator), fix=fixed)
        )
    generate = None if values.era_old else values.flag(GENERATE_FLAG)
    if generate is not None and generate > p and not values.reading.present(values.parsed, values.found, ASYNC_FLAG):
        reading.add(GENERATE_RULE(Generate(generate, p), message=GENERATE, fix=values.fix("prompts", generate)))
    batches = n * p // rollout_micro
    if batches < processes:
        fixed = values.fix("rollout_micro", max(1, n * p // processes))
        reading.add(SAMPLE_BATCHES_RULE(SampleBatches(batches, processes), message=SAMPLE_BATCHES, fix=fixed))


def _stray(parsed: Parsed) -> list[str]:
    """The words argparse leaves over: after the program, each flag takes one value (the ``NARGS`` ones theirs),
    and what no flag takes is unrecognized; a word the shell reader could not resolve is never counted."""
    found = main_command(parsed, MARKERS)
    words = found[1].arguments if found else ()
    start = next((i + 1 for i, word in enumerate(words) if word == MODULE or word.endswith("train_ppo_ray.py")), 0)
    stray: list[str] = []
    index = start
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("--") or len(word) == 2:
            if "$" not in word and "`" not in word:
                stray.append(word)
            continue
        takes = 0 if "=" in word else NARGS.get(word, 1)
        taken = 0
        while index < len(words) and not words[index].startswith("--") and (takes is None or taken < takes):
            index, taken = index + 1, taken + 1
    return stray


def _packing(reading: Reading, values: _Flags, forced: bool, micro: int | None) -> None:
    """Packing (asked for, or forced by ring attention or the dynamic batch) needs vLLM engines; it counts as before."""
    if not (forced or values.switch(PACKING)):
        return
    name = ENGINES[1] if values.era_old else ENGINES[0]
    engines = values.reading.flag(values.parsed, values.found, name, minimum=0) if name in values.found else None
    if not engines:
        message = PACKING_NONE if engines is None else PACKING_VLLM
        reading.add(PACKING_VLLM_RULE(Engines(name), message=message))
    elif micro is not None:
        reading.add(PACKING_RULE(Packing(micro)))


def _deepspeed(reading: Reading, values: _Flags, numbers: tuple[int, int, int], world: int) -> int | None:
    """DeepSpeed's accumulation from train · ring · TP and its batch assertion (OpenRLHF passes no mpu)."""
    train, parallel, micro = numbers
    total = train * parallel
    accumulation = total // micro // world
    reading.step(ACCUMULATION, (total, micro, world), accumulation)
    if accumulation > 0 and accumulation * micro * world == total:
        return accumulation
    if accumulation == 0:
        message = ZERO
    else:
        message = ASSERTION.format(train=total, micro=micro, accumulation=accumulation, world=world)
    step = micro * world // gcd(micro * world, parallel)  # train values whose train · ring · TP b · GPUs divides
    fixed = values.fix("train", *neighbours(train, step))
    reading.add(ASSERTION_RULE(Assertion(total, micro, world), message=message, fix=fixed))
    return None


def _dynamic(reading: Reading, values: _Flags) -> int:
    bound = values.number("max_tokens")
    reading.add(DYNAMIC_RULE(Dynamic(bound)))
    return bound


class _Flags:
    """The program's flags, each setting in the spelling of the command's era (dotted since ed62d0e, else flat);
    recorded with where it was written when used, OpenRLHF's default where absent."""

    def __init__(self, reading: Reading, parsed: Parsed) -> None:
        self.reading = reading
        self.parsed = parsed
        self.found = program_flags(parsed, MARKERS)
        dotted = {spellings[0] for spellings in FLAGS.values()} | {DYNAMIC[0], ESTIMATOR[0]}
        flat = {spellings[1] for spellings in FLAGS.values()} | {DYNAMIC[1], ESTIMATOR[1]}
        self.era_old = not dotted & set(self.found)
        self.defaulted: list[tuple[str, int]] = []
        self.mixed = [] if self.era_old else [_written(flag, self.found[flag]) for flag in self.found if flag in flat]

    def flag(self, flag: str) -> int | None:
        return self.reading.flag(self.parsed, self.found, flag)

    def number(self, key: str) -> int:
        dotted, flat, default = FLAGS[key]
        name = flat if self.era_old else dotted
        value = self.flag(name)
        if value is None and key in SHOWN_DEFAULTS and (name, default) not in self.defaulted:
            self.defaulted.append((name, default))
        return default if value is None else value

    def switch(self, spellings: tuple[str, str]) -> bool:
        return self.reading.present(self.parsed, self.found, spellings[1] if self.era_old else spellings[0])

    def text(self, spellings: tuple[str, str]) -> str | None:
        name = spellings[1] if self.era_old else spellings[0]
        if not self.found.get(name):
            return None
        self.reading.note(name, self.found[name][0], self.parsed.where(name))
        return self.found[name][0]

    def world(self, given: World | None) -> World | None:
        """``--actor.num_nodes`` · ``--actor.num_gpus_per_node`` (1 · 8); a world given from outside where neither
        is written."""
        names = [FLAGS[key][1] if self.era_old else FLAGS[key][0] for key in ("nodes", "gpus")]
        if given is not None and not any(name in self.found for name in names):
            return given
        nodes, gpus = self.number("nodes"), self.number("gpus")
        return World(nodes * gpus, " · ".join(self.parsed.where(name) for name in names))

    def fix(self, key: str, *candidates: int | None) -> Fix | None:
        given = tuple(v for v in candidates if v is not None and v >= 1)
        name = FLAGS[key][1] if self.era_old else FLAGS[key][0]
        return Fix(name, given, Syntax.FLAG) if given else None


def _written(flag: str, values: list[str]) -> str:
    return " ".join((flag, *values))
