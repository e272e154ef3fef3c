"""NeMo 1 runs spread over files: the model YAML composed with its Hydra ``defaults:`` and the launch line's overrides.

Fixtures in ``tests/data/configs/nemo/<case>/``, shaped like NeMo 1's Hydra configs. Each row's config values are
what hydra-core 1.3.2 composed for the same directory, run in a throwaway venv:
``with initialize_config_dir(config_dir=<case>, version_base=None): compose(config_name="main", overrides=[…])``
(the overrides those of the case's ``run.sh``), then read with ``OmegaConf.select``; the batch from those values
by Megatron-core's ``ConstantNumMicroBatchesCalculator`` (d = world / (TP · PP · CP), a = B / (b · d)) as for
every NeMo row in ``tests/test_checks.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs"
NEMO = CONFIGS / "nemo"


def checked(case: str, world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    files = sorted(path for path in (NEMO / case).rglob("*") if path.is_file())
    return check_config([Source(str(p.relative_to(CONFIGS)), p.read_text()) for p in files], given)


def pasted(files: dict[str, str]) -> Check:
    return check_config([Source(name, text) for name, text in files.items()])


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


NOT_GIVEN = "nemo/defaults-not-given"
ROWS = [
    # Hydra: no _self_ in the defaults list puts it last; main's global_batch_size 128 over base's 64.
    # devices 8 × 1 node, d = 8, a = 128 / (2 · 8) = 8.
    ("self-last", (8, 8, 2, 8, 128, 4096)),
    # Hydra: _self_ listed first; base (merged after) wins with 64; a = 64 / 16 = 4.
    ("self-first", (8, 8, 2, 4, 64, 4096)),
    # Hydra: base's tensor_model_parallel_size ??? filled by main (2); main's ??? keeps base's 64.
    # d = 8 / 2 = 4, a = 64 / (2 · 4) = 8.
    ("missing-filled", (8, 4, 2, 8, 64, 4096)),
    # Hydra: cluster/two_nodes.yaml (# @package _global_) sets trainer.num_nodes 2; parallel@model: tp2 puts
    # parallel/tp2.yaml under model: TP 2. World 8 × 2 = 16, d = 8, a = 256 / 8 = 32.
    ("groups", (16, 8, 1, 32, 256, 2048)),
    # Hydra: main → mid → base, each with _self_ last: PP 2 from mid, global_batch_size 32 from main.
    # d = 8 / 2 = 4, a = 32 / (2 · 4) = 8 / 2 = 4.
    ("chain", (8, 4, 2, 4, 32, 4096)),
    # Hydra: ++model.global_batch_size=256 trainer.num_nodes=2 +model.data.seq_length=1024 on `python …`
    # (Lightning starts the 8 × 2 processes itself): d = 16, a = 256 / (2 · 16) = 8; L stays encoder_seq_length.
    ("overrides", (16, 16, 2, 8, 256, 4096)),
    # Hydra: ~model.global_batch_size deletes it (OmegaConf.select: None); torchrun 8 processes; NeMo's
    # default B = b · d = 16, a = 1.
    ("deleted", (8, 8, 2, 1, 16, 4096)),
    # Hydra: cluster=one_node chooses the group's other option (num_nodes 1), model.micro_batch_size=4:
    # world 8, TP 2, d = 4, a = 256 / (4 · 4) = 16.
    ("group-override", (8, 4, 4, 16, 256, 2048)),
    # OmegaConf interpolations after composition: global_batch_size ${.gbs} → main's 128, data.seq_length
    # ${model.max_len} → 1024 (encoder_seq_length absent). TP 2: d = 4, a = 128 / (2 · 4) = 16.
    ("interpolation", (8, 4, 2, 16, 128, 1024)),
]


def test_a_launch_line_alone_gives_its_overrides_and_says_the_config_is_missing() -> None:
    """``python megatron_gpt_pretraining.py model.global_batch_size=4 …`` without its YAML: the overrides' values,
    the rest NeMo's defaults, and a warning naming the line; srun's 8 tasks: d = 8 / (1 · 4) = 2, a = 4 / 2 = 2."""
    check = checked("launch-alone")
    assert check.framework == "nemo"
    assert numbers(check) == (8, 2, 1, 2, 4, None)
    found = [f.context for f in check.findings if f.code == "nemo/config-not-given"]
    assert [(c.where, c.script, c.config) for c in found] == [
        ("nemo/launch-alone/run.sh:8", "megatron_gpt_pretraining.py", "-")
    ]


@pytest.mark.parametrize(("case", "expected"), ROWS, ids=[row[0] for row in ROWS])
def test_nemo_composes_its_config_as_hydra_does(case: str, expected: tuple[int | None, ...]) -> None:
    """World, d, b, a, B and L from the config Hydra composes of the defaults list and the launch line."""
    check = checked(case)
    assert check.framework == "nemo"
    assert numbers(check) == expected
    assert not {f.code for f in check.findings} - {"megatron/global-batch-size-default"}


BASE = "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n  global_batch_size: 64\n"
MAIN = "defaults:\n  - base\n  - _self_\nmodel:\n  tensor_model_parallel_size: 2\n"
REFUSED = [
    # Hydra: "Could not override 'model.nope'. To append to your config use +model.nope=1".
    (
        {"base.yaml": BASE, "main.yaml": MAIN, "run.sh": "python train.py -cn main model.nope=1\n"},
        "nemo/hydra-override-no-key",
    ),
    # Hydra: "Could not append to config. An item is already at 'model.micro_batch_size'".
    (
        {"base.yaml": BASE, "main.yaml": MAIN, "run.sh": "python train.py -cn main +model.micro_batch_size=4\n"},
        "nemo/hydra-append-exists",
    ),
    # Hydra: "Could not delete from config. 'model.nope' does not exist."
    (
        {"base.yaml": BASE, "main.yaml": MAIN, "run.sh": "python train.py -cn main ~model.nope\n"},
        "nemo/hydra-override-no-key",
    ),
]


@pytest.mark.parametrize(("files", "rule"), REFUSED, ids=["no-key", "append-exists", "delete-no-key"])
def test_an_override_hydra_refuses_stops_the_run(files: dict[str, str], rule: str) -> None:
    """An override Hydra cannot apply is named with its word and line; there is no batch."""
    check = pasted(files)
    found = [f for f in check.findings if f.code == rule]
    assert len(found) == 1
    assert found[0].context.where == "run.sh:1"
    assert check.global_batch is None


def test_a_mandatory_value_no_file_fills_is_named_not_guessed() -> None:
    """``???`` left by the composition (its base not among the files) is named with the config the list misses."""
    check = pasted(
        {"main.yaml": "defaults:\n  - base\ntrainer:\n  devices: 8\nmodel:\n  tensor_model_parallel_size: ???\n"}
    )
    found = [f for f in check.findings if f.code == "nemo/missing-mandatory-value"]
    assert [(f.context.key, f.context.where, f.context.unfound) for f in found] == [
        ("model.tensor_model_parallel_size", "main.yaml:6", "base")
    ]
    assert check.global_batch is None


def test_a_defaults_entry_not_given_is_said() -> None:
    """A config the defaults list names but no file holds is said beside the answer from the rest."""
    check = pasted({"main.yaml": "defaults:\n  - base\n  - _self_\n" + BASE})
    assert [f.context.unfound for f in check.findings if f.code == NOT_GIVEN] == ["base"]
    assert check.global_batch == 64


def test_the_config_name_on_the_launch_line_chooses_the_primary() -> None:
    """Of two model YAMLs on the same base, the one ``--config-name`` names is composed."""
    files = {
        "base.yaml": BASE,
        "small.yaml": "defaults:\n  - base\n  - _self_\nmodel:\n  tensor_model_parallel_size: 1\n",
        "large.yaml": MAIN,
        "run.sh": "python train.py --config-name=large.yaml\n",
    }
    assert numbers(pasted(files)) == (8, 4, 2, 8, 64, None)


def test_a_config_name_not_among_the_files_is_not_swapped_for_another_yaml() -> None:
    """``--config-name=large`` with only ``small.yaml`` given: Hydra would load large, so only the line's overrides
    count (d = 8, a = 64 / (2 · 8) = 4), and the missing YAML is named."""
    files = {
        "small.yaml": "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n  tensor_model_parallel_size: 8\n",
        "run.sh": "python train.py --config-name=large trainer.devices=8 model.micro_batch_size=2 "
        "model.global_batch_size=64\n",
    }
    check = pasted(files)
    assert numbers(check) == (8, 8, 2, 4, 64, None)
    assert [f.context.config for f in check.findings if f.code == "nemo/config-not-given"] == ["large"]


def test_a_nemo_aligner_line_is_not_claimed() -> None:
    """NeMo-Aligner's ``train_reward_model.py … trainer.rm.val_check_interval=10`` runs a loop of its own: no NeMo."""
    line = "python train_reward_model.py trainer.devices=8 ++model.global_batch_size=512 trainer.rm.max_steps=10\n"
    with pytest.raises(CheckError) as raised:
        pasted({"rm.sh": line})
    assert raised.value.kind is ProblemKind.NOTHING_TO_CHECK


RUNNER = (
    "from pytorch_lightning import Trainer\n"
    "from nemo.core.config import hydra_runner\n\n\n"
    '@hydra_runner(config_path="conf", config_name="megatron_gpt_config")\n'
    "def main(cfg) -> None:\n"
    "    trainer = Trainer(plugins=[], **cfg.trainer)\n\n\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def test_the_script_s_hydra_runner_names_the_config_and_is_nemo_s() -> None:
    """A NeMo 1 script (``@hydra_runner(config_name=…)``, a Lightning ``Trainer`` inside) is NeMo's, not
    Lightning's, and its ``config_name`` chooses the YAML: TP 2 → d = 4, a = 128 / (2 · 4) = 16."""
    files = {
        "megatron_gpt_pretraining.py": RUNNER,
        "other.yaml": "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 1\n  global_batch_size: 8\n",
        "megatron_gpt_config.yaml": BASE + "  tensor_model_parallel_size: 2\n",
        "run.sh": "python megatron_gpt_pretraining.py model.global_batch_size=128\n",
    }
    check = pasted(files)
    assert check.framework == "nemo"
    assert numbers(check) == (8, 4, 2, 16, 128, None)


def test_hydra_s_own_settings_are_not_the_job_s_config() -> None:
    """``override hydra/job_logging: disabled`` and ``hydra.run.dir=…`` configure Hydra: neither is refused nor
    missing; hydra-core 1.3.2 composed model.global_batch_size 32, TP 2: d = 4, a = 32 / (2 · 4) = 4."""
    files = {
        "base.yaml": BASE,
        "main.yaml": "defaults:\n  - base\n  - override hydra/job_logging: disabled\n  - _self_\n"
        "model:\n  tensor_model_parallel_size: 2\n",
        "run.sh": "python train.py -cn main hydra.run.dir=/tmp/x model.global_batch_size=32\n",
    }
    check = pasted(files)
    assert numbers(check) == (8, 4, 2, 4, 32, None)
    assert not check.findings
