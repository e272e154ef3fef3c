"""Published training runs: how large their batches were, each number with its source.

One frozen row per run. A run's global batch is a tuple of phases: ramp-ups and schedules
(GPT-3, BLOOM, Llama 3, DeepSeek-V2/V3) start small and grow; the last phase is the batch the
run mostly trained with. Every row names where its numbers were read: a paper's table or
section, or a config file in the authors' repository at a commit.

Verified against public sources, read through the search tools:

- GPT-3: Brown et al. 2020 (arXiv 2005.14165), Table 2.1 (sizes, batch in tokens, learning
  rate; read in dmccreary/gpt-3-demos ``docs/background.md``, which copies the table) and
  Appendix B (the batch grows linearly from 32k tokens over the first 4-12 B tokens, by size;
  300 B tokens, context 2.048). Table 2.1 writes 0,5M/1M/2M/3,2M tokens: as sequences of 2.048
  that is 256/512/1.024/1.536, as Megatron-DeepSpeed's ``gpt-sizes.sh`` writes them.
- Chinchilla 70B and Gopher 280B: Hoffmann et al. 2022 (arXiv 2203.15556), Table 4 (max LR,
  batch 1,5M → 3M and 3M → 6M tokens, "we double the batch size midway through training"), §4
  (Chinchilla: 1,4T tokens) and Table 1 (Gopher: 300B tokens); Rae et al. 2021 (Gopher, §3): 2.048
  token context, which Chinchilla shares ("the same model architecture and training setup"). The
  M in 1,5M/3M/6M is read as 2²⁰: whole sequences of 2.048 (768/1.536/3.072), as Llama 2's "4M"
  is 1.024 × 4.096; the doubling is placed at half the tokens.
- Falcon 7B/40B: the model cards tiiuae/falcon-7b and tiiuae/falcon-40b (Training
  Hyperparameters, Technical Specifications): batch 2.304 / 1.152 sequences of 2.048 after a
  30B / 100B-token ramp-up (its starting value is not given), LR 6e-4 / 1,85e-4, 1.500B / 1.000B
  tokens.
- Llama 2: Touvron et al. 2023 (arXiv 2307.09288), Table 1: 2,0 T tokens, context 4k, peak LR,
  "global batch-size of 4M tokens" (taken as 1.024 sequences of 4.096).
- Llama 3 405B: Llama Team 2024 (arXiv 2407.21783), §3.4.1: 4M tokens at 4.096, doubled to 8M
  at 8.192 after 252M tokens, 16M after 2,87T; peak LR 8e-5; 15,6 T tokens.
- DeepSeek LLM 7B/67B: Bi et al. 2024 (arXiv 2401.02954), Table 2 and deepseek-ai/DeepSeek-LLM
  README.md at 1b79a65 ("batch size of 2304 … 4608", 4.096, 2 T tokens, 4,2e-4 / 3,2e-4).
- DeepSeek-V2: DeepSeek-AI 2024 (arXiv 2405.04434), §3.2 / training hyper-parameters: 236B
  total (21B active), 8,1 T tokens, 4K, batch 2.304 → 9.216 over the first 225B tokens, 2,4e-4.
- DeepSeek-V3: DeepSeek-AI 2024 (arXiv 2412.19437), §4.2: 671B (37B active), 14,8 T tokens,
  4K, batch 3.072 → 15.360 over the first 469B tokens, 2,2e-4.
- OLMo 2 7B/13B (stage 1): allenai/OLMo ``configs/official-1124/OLMo2-{7,13}B-stage1.yaml``
  at 0482070 (global_train_batch_size, max_sequence_length, learning_rate); tokens = last
  step of ``OLMo-2-1124-{7,13}B.csv`` (@32f934f: 928.000 / @c0c2b9f: 596.057) × batch tokens.
- OLMo 2 32B: allenai/OLMo-core ``src/scripts/official/OLMo2/OLMo-2-0325-32B-train.py`` at
  138b1fc: global_batch_size 2048 × 4096 tokens, lr 6e-4; max_duration 6,5e12 tokens was the plan.
  Stage 1 ended at step 721.901: the last row of ``src/scripts/official/OLMo2/OLMo-2-0325-32B.csv``
  (OLMo-core @fa6c501) and the README's stage-1 checkpoint ``stage1-step721901-tokens6056B``:
  721.901 × 2.048 × 4.096 = 6,056 T tokens (the step, not the planned length, fixes the tokens).
- BLOOM 176B: bigscience-workshop/bigscience ``train/tr11-176B-ml/tr11-176B-ml.slurm`` at
  003b250: GLOBAL_BATCH_SIZE 2048, SEQ_LEN 2048, ``--rampup-batch-size 192 16 9_765_625``,
  lr 6e-5; TRAIN_SAMPLES 220M (450B tokens) was the plan. Trained: 366B tokens, the model card
  bigscience/bloom README.md at 1015162 ("Training Iteration 95000", "total seen tokens: 366B":
  trained, not planned).
- SmolLM3 3B: huggingface/smollm ``text/pretraining/smollm3/stage1_8T.yaml`` at a041759 (the same
  in stage2/stage3): dp 192 × micro_batch_size 3 × batch_accumulation_per_replica 1 = 576 sequences
  of 4.096 = 2.359.296 tokens (the HuggingFaceTB/SmolLM3-3B-checkpoints card: "The GBS … is
  2,359,296"), learning_rate 0.0002; HuggingFaceTB/SmolLM3-3B-Base model card: "pretrained on
  11.2T tokens", a 3B model.
- DeepSeek-V2-Lite: deepseek-ai/DeepSeek-V2-Lite README.md at 901a97a, §5 (15,7B total, 2,4B
  activated) and §6 Training Details ("constant batch size of 4608 sequences", "maximum sequence
  length to 4K", "5.7T tokens", maximum learning rate 4,2e-4).
- SmolLM2: huggingface/smollm ``text/pretraining/smollm2/config_smollm2_{135M,360M,1B}.yaml``
  at a041759: dp × micro_batch_size × batch_accumulation_per_replica, sequence_length,
  learning_rate, train_steps.
- Pythia: EleutherAI/pythia ``models/<size>/pythia-<size>.yml`` at a19eecb: GPUs /
  model-parallel × micro-batch × accumulation = 1.024, seq-length 2.048, train-iters 143.000,
  lr. (The README table gives 3,0e-4 for 1B; its config says 0,00025 – the config is used.)

Nothing the issue lists was left out; every row above was read in its source.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    """One stretch of a run's batch schedule.

    ``sequences`` is None where the source gives tokens only; ``start_tokens`` is where the phase
    begins (tokens trained before it), None where the source gives no exact point; ``ramp``: the
    batch grows linearly from here to the next phase. A first phase that starts after 0 tokens was
    reached by a ramp-up whose starting batch the source does not give (Falcon).
    """

    tokens_per_step: int
    seq_len: int
    sequences: int | None = None
    start_tokens: int | None = 0
    ramp: bool = False


@dataclass(frozen=True)
class PublishedRun:
    """A published pre-training run: its size, length, batch schedule, peak learning rate, source."""

    name: str
    title: str
    family: str
    params: int
    tokens: int
    phases: tuple[Phase, ...]
    lr: float | None
    source: str
    active_params: int | None = None

    @property
    def final(self) -> Phase:
        """The phase the run trained most of its tokens with."""
        return self.phases[-1]

    @property
    def global_batch_tokens(self) -> int:
        return self.final.tokens_per_step

    @property
    def seq_len(self) -> int:
        return self.final.seq_len

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "params": self.params,
            "tokens": self.tokens,
            "seq_len": self.seq_len,
            "global_batch_tokens": self.global_batch_tokens,
            "lr": self.lr,
            "source": self.source,
        }


def _fixed(sequences: int, seq_len: int) -> tuple[Phase, ...]:
    return (Phase(sequences * seq_len, seq_len, sequences),)


def _ramp(first: int, last: int, seq_len: int, over_tokens: int | None) -> tuple[Phase, ...]:
    """A linear ramp from ``first`` to ``last`` sequences, reaching ``last`` after ``over_tokens``."""
    return (
        Phase(first * seq_len, seq_len, first, 0, ramp=True),
        Phase(last * seq_len, seq_len, last, over_tokens),
    )


_GPT3 = "Brown et al. 2020 (arXiv 2005.14165), Table 2.1 und Anhang B"
_GPT3_RAMP = Phase(32_000, 2048, None, 0, ramp=True)  # "from a small value (32k tokens)", Appendix B
_LLAMA2 = "Touvron et al. 2023 (arXiv 2307.09288), Tabelle 1"
_CHINCHILLA = "Hoffmann et al. 2022 (arXiv 2203.15556), Tabelle 4 und 1, Abschnitt 4; Rae et al. 2021 (Gopher)"
_FALCON = "Modellkarte tiiuae/falcon-{} (Hugging Face): Training Hyperparameters, Technical Specifications"
_DEEPSEEK = "Bi et al. 2024 (arXiv 2401.02954), Tabelle 2; deepseek-ai/DeepSeek-LLM README.md @1b79a65"
_OLMO2 = "allenai/OLMo configs/official-1124/OLMo2-{}B-stage1.yaml @0482070 und OLMo-2-1124-{}B.csv @{}"
_SMOLLM2 = "huggingface/smollm text/pretraining/smollm2/config_smollm2_{}.yaml @a041759"
_PYTHIA = "EleutherAI/pythia models/{}/pythia-{}.yml @a19eecb"
_PYTHIA_TOKENS = 143_000 * 1024 * 2048
_SMOLLM3 = (
    "huggingface/smollm text/pretraining/smollm3/stage1_8T.yaml @a041759; Modellkarte HuggingFaceTB/SmolLM3-3B-Base"
)
_DEEPSEEK_V2_LITE = "deepseek-ai/DeepSeek-V2-Lite README.md @901a97a, Abschnitte 5 und 6"


def _gpt3(size: str, params: int, sequences: int, lr: float) -> PublishedRun:
    final = Phase(sequences * 2048, 2048, sequences, None)  # reached after 4-12 B tokens, by size
    return PublishedRun(
        f"gpt3-{size.lower()}", f"GPT-3 {size}", "GPT-3", params, 300 * 10**9, (_GPT3_RAMP, final), lr, _GPT3
    )


def _pythia(size: str, params: int, lr: float) -> PublishedRun:
    source = _PYTHIA.format(size, size.lower())
    return PublishedRun(
        f"pythia-{size.lower()}", f"Pythia {size}", "Pythia", params, _PYTHIA_TOKENS, _fixed(1024, 2048), lr, source
    )


RUNS: tuple[PublishedRun, ...] = (
    _gpt3("125M", 125 * 10**6, 256, 6.0e-4),
    _gpt3("350M", 350 * 10**6, 256, 3.0e-4),
    _gpt3("760M", 760 * 10**6, 256, 2.5e-4),
    _gpt3("1.3B", 1_300 * 10**6, 512, 2.0e-4),
    _gpt3("2.7B", 2_700 * 10**6, 512, 1.6e-4),
    _gpt3("6.7B", 6_700 * 10**6, 1024, 1.2e-4),
    _gpt3("13B", 13 * 10**9, 1024, 1.0e-4),
    _gpt3("175B", 175 * 10**9, 1536, 0.6e-4),
    PublishedRun(
        "chinchilla-70b",
        "Chinchilla 70B",
        "DeepMind",
        70 * 10**9,
        1_400 * 10**9,
        (Phase(768 * 2048, 2048, 768), Phase(1536 * 2048, 2048, 1536, 700 * 10**9)),
        1.0e-4,
        _CHINCHILLA,
    ),
    PublishedRun(
        "gopher-280b",
        "Gopher 280B",
        "DeepMind",
        280 * 10**9,
        300 * 10**9,
        (Phase(1536 * 2048, 2048, 1536), Phase(3072 * 2048, 2048, 3072, 150 * 10**9)),
        4.0e-5,
        _CHINCHILLA,
    ),
    PublishedRun("llama2-7b", "Llama 2 7B", "Llama", 7 * 10**9, 2 * 10**12, _fixed(1024, 4096), 3.0e-4, _LLAMA2),
    PublishedRun("llama2-13b", "Llama 2 13B", "Llama", 13 * 10**9, 2 * 10**12, _fixed(1024, 4096), 3.0e-4, _LLAMA2),
    PublishedRun("llama2-34b", "Llama 2 34B", "Llama", 34 * 10**9, 2 * 10**12, _fixed(1024, 4096), 1.5e-4, _LLAMA2),
    PublishedRun("llama2-70b", "Llama 2 70B", "Llama", 70 * 10**9, 2 * 10**12, _fixed(1024, 4096), 1.5e-4, _LLAMA2),
    PublishedRun(
        "llama3-405b",
        "Llama 3 405B",
        "Llama",
        405 * 10**9,
        15_600 * 10**9,
        (
            Phase(1024 * 4096, 4096, 1024, 0),
            Phase(1024 * 8192, 8192, 1024, 252 * 10**6),
            Phase(2048 * 8192, 8192, 2048, 2_870 * 10**9),
        ),
        8.0e-5,
        "Llama Team 2024 (arXiv 2407.21783), Abschnitt 3.4.1",
    ),
    PublishedRun(
        "deepseek-7b", "DeepSeek LLM 7B", "DeepSeek", 7 * 10**9, 2 * 10**12, _fixed(2304, 4096), 4.2e-4, _DEEPSEEK
    ),
    PublishedRun(
        "deepseek-67b", "DeepSeek LLM 67B", "DeepSeek", 67 * 10**9, 2 * 10**12, _fixed(4608, 4096), 3.2e-4, _DEEPSEEK
    ),
    PublishedRun(
        "deepseek-v2",
        "DeepSeek-V2",
        "DeepSeek",
        236 * 10**9,
        8_100 * 10**9,
        _ramp(2304, 9216, 4096, 225 * 10**9),
        2.4e-4,
        "DeepSeek-AI 2024 (arXiv 2405.04434), Abschnitt 3.2.2",
        active_params=21 * 10**9,
    ),
    PublishedRun(
        "deepseek-v3",
        "DeepSeek-V3",
        "DeepSeek",
        671 * 10**9,
        14_800 * 10**9,
        _ramp(3072, 15360, 4096, 469 * 10**9),
        2.2e-4,
        "DeepSeek-AI 2024 (arXiv 2412.19437), Abschnitt 4.2",
        active_params=37 * 10**9,
    ),
    PublishedRun(
        "deepseek-v2-lite",
        "DeepSeek-V2-Lite",
        "DeepSeek",
        15_700 * 10**6,
        5_700 * 10**9,
        _fixed(4608, 4096),
        4.2e-4,
        _DEEPSEEK_V2_LITE,
        active_params=2_400 * 10**6,
    ),
    PublishedRun(
        "olmo2-7b",
        "OLMo 2 7B",
        "OLMo",
        7 * 10**9,
        928_000 * 1024 * 4096,
        _fixed(1024, 4096),
        3.0e-4,
        _OLMO2.format(7, 7, "32f934f"),
    ),
    PublishedRun(
        "olmo2-13b",
        "OLMo 2 13B",
        "OLMo",
        13 * 10**9,
        596_057 * 2048 * 4096,
        _fixed(2048, 4096),
        3.0e-4,
        _OLMO2.format(13, 13, "c0c2b9f"),
    ),
    PublishedRun(
        "olmo2-32b",
        "OLMo 2 32B",
        "OLMo",
        32 * 10**9,
        721_901 * 2048 * 4096,  # stage 1's last step: 6,056 T tokens
        _fixed(2048, 4096),
        6.0e-4,
        "allenai/OLMo-core src/scripts/official/OLMo2/OLMo-2-0325-32B-train.py @138b1fc und "
        "OLMo-2-0325-32B.csv @fa6c501",
    ),
    PublishedRun(
        "bloom-176b",
        "BLOOM 176B",
        "BLOOM",
        176 * 10**9,
        366 * 10**9,  # trained (the model card); TRAIN_SAMPLES 220M × 2.048 = 450B was the plan
        _ramp(192, 2048, 2048, 9_765_625 * 2048),
        6.0e-5,
        "bigscience-workshop/bigscience train/tr11-176B-ml/tr11-176B-ml.slurm @003b250; Modellkarte "
        "bigscience/bloom README.md @1015162",
    ),
    PublishedRun(
        "falcon-7b",
        "Falcon 7B",
        "Falcon",
        7 * 10**9,
        1_500 * 10**9,
        (Phase(2304 * 2048, 2048, 2304, 30 * 10**9),),
        6.0e-4,
        _FALCON.format("7b"),
    ),
    PublishedRun(
        "falcon-40b",
        "Falcon 40B",
        "Falcon",
        40 * 10**9,
        1_000 * 10**9,
        (Phase(1152 * 2048, 2048, 1152, 100 * 10**9),),
        1.85e-4,
        _FALCON.format("40b"),
    ),
    PublishedRun(
        "smollm2-135m",
        "SmolLM2 135M",
        "SmolLM",
        135 * 10**6,
        2_000_000 * 512 * 2048,
        _fixed(512, 2048),
        3.0e-3,
        _SMOLLM2.format("135M"),
    ),
    PublishedRun(
        "smollm2-360m",
        "SmolLM2 360M",
        "SmolLM",
        360 * 10**6,
        2_600_000 * 768 * 2048,
        _fixed(768, 2048),
        3.0e-3,
        _SMOLLM2.format("360M"),
    ),
    PublishedRun(
        "smollm2-1.7b",
        "SmolLM2 1.7B",
        "SmolLM",
        1_700 * 10**6,
        5_240_000 * 1024 * 2048,
        _fixed(1024, 2048),
        5.0e-4,
        _SMOLLM2.format("1B"),
    ),
    PublishedRun("smollm3-3b", "SmolLM3 3B", "SmolLM", 3 * 10**9, 11_200 * 10**9, _fixed(576, 4096), 2.0e-4, _SMOLLM3),
    _pythia("70M", 70 * 10**6, 1.0e-3),
    _pythia("160M", 160 * 10**6, 6.0e-4),
    _pythia("410M", 410 * 10**6, 3.0e-4),
    _pythia("1B", 1_000 * 10**6, 2.5e-4),
    _pythia("1.4B", 1_400 * 10**6, 2.0e-4),
    _pythia("2.8B", 2_800 * 10**6, 1.6e-4),
    _pythia("6.9B", 6_900 * 10**6, 1.2e-4),
    _pythia("12B", 12 * 10**9, 1.2e-4),
)


def _normal(name: str) -> str:
    """How names are compared: case-insensitive, ``-`` and ``_`` ignored (``Llama2_7B`` = ``llama2-7b``)."""
    return name.casefold().replace("-", "").replace("_", "")


_BY_NAME = {_normal(run.name): run for run in RUNS}


def find_run(name: str) -> PublishedRun | None:
    """The run called ``name`` (``llama2-7b``, also ``Llama-2-7B``), or None."""
    return _BY_NAME.get(_normal(name))


def run_names() -> tuple[str, ...]:
    return tuple(run.name for run in RUNS)


def filter_runs(query: str | None) -> tuple[PublishedRun, ...]:
    """Every run whose name, title or family contains ``query`` (all without one)."""
    if not query:
        return RUNS
    wanted = _normal(query)
    return tuple(run for run in RUNS if any(wanted in _normal(text) for text in (run.name, run.title, run.family)))


def nearest_runs(params: int, count: int = 3) -> tuple[PublishedRun, ...]:
    """The ``count`` runs closest in size (by the ratio of parameter counts), nearest first."""
    return tuple(sorted(RUNS, key=lambda run: abs(math.log(run.params / params)))[:count])
