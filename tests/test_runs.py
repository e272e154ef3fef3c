"""The published runs: every row as its source states it, looked up and filtered as people type them."""

from __future__ import annotations

import pytest

from effbatch.core.runs import RUNS, filter_runs, find_run, nearest_runs

#: name, parameters, tokens trained, L, global batch in sequences (last phase), peak LR, where it was read.
ROWS = [
    # Brown et al. 2020, Table 2.1: 0,5M/1M/2M/3,2M tokens at 2.048 = 256/512/1.024/1.536 sequences; 300B tokens.
    ("gpt3-125m", 125 * 10**6, 300 * 10**9, 2048, 256, 6.0e-4, "Table 2.1"),
    ("gpt3-350m", 350 * 10**6, 300 * 10**9, 2048, 256, 3.0e-4, "Table 2.1"),
    ("gpt3-760m", 760 * 10**6, 300 * 10**9, 2048, 256, 2.5e-4, "Table 2.1"),
    ("gpt3-1.3b", 1_300 * 10**6, 300 * 10**9, 2048, 512, 2.0e-4, "Table 2.1"),
    ("gpt3-2.7b", 2_700 * 10**6, 300 * 10**9, 2048, 512, 1.6e-4, "Table 2.1"),
    ("gpt3-6.7b", 6_700 * 10**6, 300 * 10**9, 2048, 1024, 1.2e-4, "Table 2.1"),
    ("gpt3-13b", 13 * 10**9, 300 * 10**9, 2048, 1024, 1.0e-4, "Table 2.1"),
    ("gpt3-175b", 175 * 10**9, 300 * 10**9, 2048, 1536, 0.6e-4, "Table 2.1"),
    # Hoffmann et al. 2022, Table 4 (batch 1,5M → 3M / 3M → 6M tokens, M = 2²⁰), §4 and Table 1; 2.048 (Gopher).
    ("chinchilla-70b", 70 * 10**9, 1_400 * 10**9, 2048, 1536, 1.0e-4, "2203.15556"),
    ("gopher-280b", 280 * 10**9, 300 * 10**9, 2048, 3072, 4.0e-5, "2203.15556"),
    # Touvron et al. 2023, Table 1: 2,0T tokens, 4k context, "global batch-size of 4M tokens".
    ("llama2-7b", 7 * 10**9, 2 * 10**12, 4096, 1024, 3.0e-4, "Tabelle 1"),
    ("llama2-13b", 13 * 10**9, 2 * 10**12, 4096, 1024, 3.0e-4, "Tabelle 1"),
    ("llama2-34b", 34 * 10**9, 2 * 10**12, 4096, 1024, 1.5e-4, "Tabelle 1"),
    ("llama2-70b", 70 * 10**9, 2 * 10**12, 4096, 1024, 1.5e-4, "Tabelle 1"),
    # Llama Team 2024, §3.4.1: last phase 16M tokens of 8.192-token sequences; peak LR 8e-5; 15,6T tokens.
    ("llama3-405b", 405 * 10**9, 15_600 * 10**9, 8192, 2048, 8.0e-5, "3.4.1"),
    # Bi et al. 2024, Table 2 and the DeepSeek-LLM README: batch 2304 / 4608 at 4.096, LR 4,2e-4 / 3,2e-4, 2T.
    ("deepseek-7b", 7 * 10**9, 2 * 10**12, 4096, 2304, 4.2e-4, "Tabelle 2"),
    ("deepseek-67b", 67 * 10**9, 2 * 10**12, 4096, 4608, 3.2e-4, "Tabelle 2"),
    # DeepSeek-V2 (arXiv 2405.04434): 236B total, 8,1T tokens, 2.304 → 9.216 sequences of 4K, LR 2,4e-4.
    ("deepseek-v2", 236 * 10**9, 8_100 * 10**9, 4096, 9216, 2.4e-4, "2405.04434"),
    # DeepSeek-V3 (arXiv 2412.19437) §4.2: 671B, 14,8T tokens, 3.072 → 15.360 sequences of 4K, LR 2,2e-4.
    ("deepseek-v3", 671 * 10**9, 14_800 * 10**9, 4096, 15360, 2.2e-4, "2412.19437"),
    # deepseek-ai/DeepSeek-V2-Lite README @901a97a, §6 Training Details: "constant batch size of 4608 sequences",
    # "maximum sequence length to 4K", "5.7T tokens", "4.2 × 10^-4"; §5: 15,7B total, 2,4B activated.
    ("deepseek-v2-lite", 15_700 * 10**6, 5_700 * 10**9, 4096, 4608, 4.2e-4, "DeepSeek-V2-Lite README"),
    # allenai/OLMo configs/official-1124: global_train_batch_size 1024/2048, 4.096, LR 3e-4; last checkpoint steps.
    ("olmo2-7b", 7 * 10**9, 928_000 * 1024 * 4096, 4096, 1024, 3.0e-4, "OLMo2-7B-stage1.yaml"),
    ("olmo2-13b", 13 * 10**9, 596_057 * 2048 * 4096, 4096, 2048, 3.0e-4, "OLMo2-13B-stage1.yaml"),
    # allenai/OLMo-core OLMo-2-0325-32B-train.py: global_batch_size 2048 × 4096, lr 6e-4 (max_duration 6,5e12 was
    # the plan); stage 1 ended at step 721.901 (OLMo-2-0325-32B.csv's last row, the README's checkpoint
    # stage1-step721901-tokens6056B): 721.901 × 2.048 × 4.096 = 6,056 T tokens.
    ("olmo2-32b", 32 * 10**9, 721_901 * 2048 * 4096, 4096, 2048, 6.0e-4, "OLMo-2-0325-32B.csv"),
    # bigscience tr11-176B-ml.slurm: GLOBAL_BATCH_SIZE 2048, SEQ_LEN 2048, lr 6e-5 (TRAIN_SAMPLES 220M = 450B was the
    # plan); the bigscience/bloom model card @1015162: "total seen tokens: 366B".
    ("bloom-176b", 176 * 10**9, 366 * 10**9, 2048, 2048, 6.0e-5, "tr11-176B-ml.slurm"),
    # The Falcon model cards: batch 2.304 / 1.152 at 2.048, LR 6e-4 / 1,85e-4, 1.500B / 1.000B tokens.
    ("falcon-7b", 7 * 10**9, 1_500 * 10**9, 2048, 2304, 6.0e-4, "tiiuae/falcon-7b"),
    ("falcon-40b", 40 * 10**9, 1_000 * 10**9, 2048, 1152, 1.85e-4, "tiiuae/falcon-40b"),
    # huggingface/smollm smollm2 configs: dp 64/128/256 × micro_batch_size 8/6/4, 2.048, train_steps.
    ("smollm2-135m", 135 * 10**6, 2_000_000 * 512 * 2048, 2048, 512, 3.0e-3, "config_smollm2_135M.yaml"),
    ("smollm2-360m", 360 * 10**6, 2_600_000 * 768 * 2048, 2048, 768, 3.0e-3, "config_smollm2_360M.yaml"),
    ("smollm2-1.7b", 1_700 * 10**6, 5_240_000 * 1024 * 2048, 2048, 1024, 5.0e-4, "config_smollm2_1B.yaml"),
    # huggingface/smollm text/pretraining/smollm3/stage1_8T.yaml @a041759: dp 192 × micro_batch_size 3 ×
    # batch_accumulation_per_replica 1 = 576 × 4.096 = 2.359.296 tokens (the SmolLM3-3B-checkpoints card:
    # "GBS … 2,359,296"), learning_rate 0.0002; the SmolLM3-3B-Base model card: "pretrained on 11.2T tokens".
    ("smollm3-3b", 3 * 10**9, 11_200 * 10**9, 4096, 576, 2.0e-4, "stage1_8T.yaml"),
    # EleutherAI/pythia models/*: GPUs / model-parallel × micro-batch × accumulation = 1.024, 143.000 iterations.
    ("pythia-70m", 70 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 1.0e-3, "pythia-70m.yml"),
    ("pythia-160m", 160 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 6.0e-4, "pythia-160m.yml"),
    ("pythia-410m", 410 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 3.0e-4, "pythia-410m.yml"),
    ("pythia-1b", 1_000 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 2.5e-4, "pythia-1b.yml"),
    ("pythia-1.4b", 1_400 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 2.0e-4, "pythia-1.4b.yml"),
    ("pythia-2.8b", 2_800 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 1.6e-4, "pythia-2.8b.yml"),
    ("pythia-6.9b", 6_900 * 10**6, 143_000 * 1024 * 2048, 2048, 1024, 1.2e-4, "pythia-6.9b.yml"),
    ("pythia-12b", 12 * 10**9, 143_000 * 1024 * 2048, 2048, 1024, 1.2e-4, "pythia-12b.yml"),
]


@pytest.mark.parametrize(
    ("name", "params", "tokens", "seq_len", "sequences", "lr", "source"), ROWS, ids=[r[0] for r in ROWS]
)
def test_row_as_its_source_states_it(
    name: str, params: int, tokens: int, seq_len: int, sequences: int, lr: float, source: str
) -> None:
    """Each run's size, length, last batch and peak learning rate, and the source that states them."""
    run = find_run(name)
    assert run is not None
    assert (run.params, run.tokens, run.seq_len, run.final.sequences, run.lr) == (
        params,
        tokens,
        seq_len,
        sequences,
        lr,
    )
    assert run.global_batch_tokens == sequences * seq_len
    assert source in run.source


def test_the_table_is_exactly_the_verified_rows() -> None:
    """No row without a test above: whatever is added must say where its numbers come from."""
    assert [run.name for run in RUNS] == [row[0] for row in ROWS]


@pytest.mark.parametrize(
    ("name", "schedule"),
    [
        # GPT-3 Appendix B: from 32k tokens, linearly, to the full batch over the first 4-12 B tokens (by size).
        ("gpt3-175b", [(32_000, 0, True), (1536 * 2048, None, False)]),
        # Llama 3 §3.4.1: 4M at 4.096 → 8M at 8.192 after 252M tokens → 16M after 2,87T.
        (
            "llama3-405b",
            [(4096 * 1024, 0, False), (8192 * 1024, 252 * 10**6, False), (8192 * 2048, 2_870 * 10**9, False)],
        ),
        # DeepSeek-V2: 2.304 → 9.216 sequences of 4K over the first 225B tokens.
        ("deepseek-v2", [(2304 * 4096, 0, True), (9216 * 4096, 225 * 10**9, False)]),
        # DeepSeek-V3: 3.072 → 15.360 over the first 469B tokens.
        ("deepseek-v3", [(3072 * 4096, 0, True), (15360 * 4096, 469 * 10**9, False)]),
        # Chinchilla Table 4: 1,5M → 3M tokens, "we double the batch size midway through training".
        ("chinchilla-70b", [(768 * 2048, 0, False), (1536 * 2048, 700 * 10**9, False)]),
        # Falcon-40B card: 1.152 sequences after a 100B-token ramp-up whose start the card does not give.
        ("falcon-40b", [(1152 * 2048, 100 * 10**9, False)]),
        # BLOOM: --rampup-batch-size 192 16 9_765_625 (samples of 2.048 tokens = 20B tokens).
        ("bloom-176b", [(192 * 2048, 0, True), (2048 * 2048, 9_765_625 * 2048, False)]),
    ],
)
def test_ramp_ups_as_phases(name: str, schedule: list[tuple[int, int | None, bool]]) -> None:
    """Ramp-ups and schedules: tokens per step, where each phase starts, whether it grows linearly."""
    run = find_run(name)
    assert run is not None
    assert [(p.tokens_per_step, p.start_tokens, p.ramp) for p in run.phases] == schedule


def test_every_phase_adds_up() -> None:
    """Where a phase names its sequences, tokens per step = sequences × L; the last phase always does."""
    for run in RUNS:
        assert run.final.sequences is not None, run.name
        for phase in run.phases:
            if phase.sequences is not None:
                assert phase.tokens_per_step == phase.sequences * phase.seq_len, run.name


@pytest.mark.parametrize("typed", ["llama2-7b", "Llama2-7B", "llama-2-7b", "LLAMA2_7B"])
def test_names_as_people_type_them(typed: str) -> None:
    """Case, hyphens and underscores do not matter."""
    run = find_run(typed)
    assert run is not None
    assert run.name == "llama2-7b"


def test_filter_by_family_or_name() -> None:
    """läufe llama: Llama 2 and 3; läufe 7b: every run with 7b anywhere in its name (67b and 2.7b too)."""
    assert [run.name for run in filter_runs("llama")] == [
        "llama2-7b",
        "llama2-13b",
        "llama2-34b",
        "llama2-70b",
        "llama3-405b",
    ]
    assert {run.name for run in filter_runs("7b")} == {
        "llama2-7b",
        "deepseek-7b",
        "olmo2-7b",
        "gpt3-6.7b",
        "smollm2-1.7b",
        "deepseek-67b",
        "gpt3-2.7b",
        "falcon-7b",
    }
    assert filter_runs(None) == RUNS
    assert filter_runs("xyz") == ()


def test_nearest_by_size() -> None:
    """135M: SmolLM2 135M first, then GPT-3 125M and Pythia 160M."""
    assert [run.name for run in nearest_runs(135 * 10**6)] == ["smollm2-135m", "gpt3-125m", "pythia-160m"]


def test_json_row() -> None:
    """--json läufe: name, params, tokens, seq_len, global_batch_tokens (last phase), lr, source."""
    run = find_run("deepseek-v3")
    assert run is not None
    assert run.as_json() == {
        "name": "deepseek-v3",
        "params": 671 * 10**9,
        "tokens": 14_800 * 10**9,
        "seq_len": 4096,
        "global_batch_tokens": 15360 * 4096,
        "lr": 2.2e-4,
        "source": "DeepSeek-AI 2024 (arXiv 2412.19437), Abschnitt 4.2",
    }
