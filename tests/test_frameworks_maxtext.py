"""MaxText: its own arithmetic on launch lines shaped like its run scripts and docs, and what a user is shown.

The fixtures in ``tests/data/configs/maxtext/`` follow the ``python3 -m maxtext.trainers.pre_train.train
src/maxtext/configs/base.yml key=value …`` lines of AI-Hypercomputer/maxtext at e591f30 (03 and 09 the older
``python3 -m MaxText.train MaxText/configs/base.yml`` form); ``base_excerpt.yml`` is base.yml's own lines. JAX and
MaxText do not install here, so the numbers were obtained by executing MaxText's deciding lines lifted verbatim:
``calculate_global_batch_sizes`` (``src/maxtext/configs/types.py:3458-3467``), ``fill_unspecified_mesh_axes``
(``utils/max_utils.py:461-484``), the pipeline, FP8 and vocabulary-tiling checks (types.py:3611-3620, 3878-3882,
3999-4003), with the chips as ``len(jax.devices())`` would count them, every chip
(research: ``/work/research/maxtext/lifted.py``, ``run_fixtures.py``, ``fixtures/EXPECTED.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import numbers, shown

from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "maxtext"


def checked(names: tuple[str, ...], chips: int | None) -> Check:
    given = World(chips, f"--world-size {chips}") if chips else None
    return check_config([Source(name, (CONFIGS / name).read_text()) for name in names], given)


EVERY_CHIP = "maxtext/per-device-counts-every-chip"
# (launch line, chips (the slice each fixture's header names), (chips, d, b, a, B, L, T), findings); EXPECTED.md.
CASES = [
    # v5e-8: B = int(8 · 4) · 1 = 32, d = fsdp 8.
    ("01_plain.sh", 8, (8, 8, 4, 1, 32, 2048, 65536), set()),
    # TP 4 on 8 chips, fsdp inferred 2: B = int(8 · 2) = 16 counts the TP chips; each of 2 replicas carries 8.
    ("02_tensor_parallel.sh", 8, (8, 2, 8, 1, 16, 4096, 65536), {EVERY_CHIP}),
    # v4-8 = 4 chips: int(4 · 1.125) = int(4.5) = 4.
    ("03_fractional_floor_old_cli.sh", 4, (4, 4, 1, 1, 4, 2048, 8192), {"maxtext/floored"}),
    # 16 chips at 0.25 with GA 4: int(16 · 0.25) · 4 = 16; 64 rows loaded, 16 trained; 4 per micro-step on 16 replicas.
    ("04_fraction_below_one_ga.sh", 16, (16, 16, None, 4, 16, 8192, 131072), {"maxtext/below-one-per-device"}),
    # TP 3 on 8 chips: fsdp = 8 / 3 is no whole number: "Unspecified value unable to be determined …".
    ("05_refuse_mesh.sh", 8, (8, None, None, 1, None, 2048, None), {"maxtext/mesh"}),
    # PP 4, 8 pipeline micro-batches, int(8 · 0.5) = 4 a forward pass: "… (4) must be divisible … (8)".
    ("06_refuse_pipeline_microbatches.sh", 8, (8, 2, None, 1, None, 2048, None), {"maxtext/pipeline-microbatches"}),
    # quantization=fp8 with GA 4: "FP8 quantization is not compatible with gradient accumulation."
    ("07_refuse_fp8_ga.sh", 8, (8, 8, None, 4, None, 2048, None), {"maxtext/fp8-accumulation"}),
    # 2 slices of v5e-16 (base.yml's dcn_data -1 takes the slices): int(32 · 4) · 2 = 256.
    ("08_multislice_ga.sh", 32, (32, 32, 4, 2, 256, 2048, 524288), set()),
    # 1.3 · 2048 = 2662.4 is no whole number: the vocabulary-tiling check refuses it even with one tile.
    ("09_refuse_fraction_times_length.sh", 8, (8, 8, None, 1, None, 2048, None), {"maxtext/vocab-tiling"}),
]


@pytest.mark.parametrize(("name", "chips", "expected", "found"), CASES, ids=[case[0] for case in CASES])
def test_maxtext_computes_what_it_will_really_use(
    name: str, chips: int, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """MaxText is detected from its launch line and its own rule gives the lifted lines' numbers."""
    check = checked((name,), chips)
    assert check.framework == "maxtext"
    assert numbers(check) == expected
    assert {finding.code for finding in check.findings} == found


def test_the_floor_offers_whole_values_as_overrides() -> None:
    """int(4 · 1.125): the answer names the floor and offers ``per_device_batch_size=1`` or ``=2``."""
    text = shown(checked(("03_fractional_floor_old_cli.sh",), 4))
    assert "MaxText: trainiert mit B = 4" in text
    assert "B = int(Chips · per_device_batch_size) · a = int(4 · 9/8) × 1 = 4" in text
    assert "per_device_batch_size=1 oder per_device_batch_size=2" in text


def test_the_mesh_refusal_quotes_maxtext_and_names_chip_counts_that_fit() -> None:
    """TP 3 on 8 chips: the assertion as MaxText prints it and the chip counts TP 3 divides."""
    text = shown(checked(("05_refuse_mesh.sh",), 8))
    assert "Unspecified value unable to be determined with the given      ICI parallelism values" in text
    assert "Passend wären 6 oder 9 Chips." in text  # a TPU slice counts chips (native review row 33)


def test_the_chips_are_asked_for() -> None:
    """No launch line says how many chips a slice has: the check asks for them."""
    with pytest.raises(CheckError) as error:
        checked(("01_plain.sh",), None)
    assert error.value.kind is ProblemKind.WORLD_SIZE_NEEDED


def test_base_yml_alone_uses_its_defaults() -> None:
    """base.yml's own lines: 12.0 a chip, ici_fsdp -1 takes all 8 chips: B = 96 (types.py:3464)."""
    assert numbers(checked(("base_excerpt.yml",), 8)) == (8, 8, 12, 1, 96, 2048, 196608)


def test_overrides_on_the_launch_line_win_over_the_yaml() -> None:
    """``per_device_batch_size=2 ici_tensor_parallelism=4`` after the YAML path override base.yml's values."""
    check = checked(("base_excerpt.yml", "02_tensor_parallel.sh"), 8)
    assert numbers(check) == (8, 2, 8, 1, 16, 4096, 65536)
    assert [r.where for r in check.read if r.key == "per_device_batch_size"] == ["02_tensor_parallel.sh:4"]


def test_a_shell_variable_for_the_batch_says_it_is_only_known_at_start() -> None:
    """``per_device_batch_size=$PDB`` is not a number yet: a specific message, not a crash."""
    line = "python3 -m MaxText.train MaxText/configs/base.yml per_device_batch_size=$PDB\n"
    with pytest.raises(CheckError) as error:
        check_config([Source("run.sh", line)], World(8, "gpus"))
    assert error.value.kind is ProblemKind.BAD_VALUE


LINE = "python3 -m MaxText.train MaxText/configs/base.yml per_device_batch_size={} max_target_length=2048"


@pytest.mark.parametrize(
    "launcher",
    [
        # MaxText's tools/orchestration/multihost_runner.py: --COMMAND run over gcloud … tpu-vm ssh on each worker
        'python3 multihost_runner.py --TPU_PREFIX=$TPU_PREFIX --COMMAND="{}"',
        # its multihost_job.py: --COMMAND written into the TPU VMs' startup script
        "python3 multihost_job.py --COMMAND='{}' --BUCKET_NAME=my-bucket",
        # xpk workload create --command: bash -c in the container
        "xpk workload create --cluster c --workload w --tpu-type=v5litepod-8 --command '{}'",
    ],
)
def test_a_launch_inside_a_job_launchers_command_string_is_read(launcher: str) -> None:
    """The trainer's line inside ``--COMMAND``/``--command``: its overrides as 01_plain.sh's (v5e-8: B = 8 · 4)."""
    script = launcher.format(LINE.format(4)) + "\n"
    check = check_config([Source("launch.sh", script)], World(8, "--world-size 8"))
    assert check.framework == "maxtext"
    assert numbers(check) == (8, 8, 4, 1, 32, 2048, 65536)


def test_the_remote_bash_has_none_of_the_launching_scripts_variables() -> None:
    """``"…=$PDB"`` is expanded by the launching shell; ``'…=$PDB'`` reaches the host's bash, where it is unset."""
    expanded = f'PDB=4\npython3 multihost_runner.py --TPU_PREFIX=t --COMMAND="{LINE.format("$PDB")}"\n'
    assert numbers(check_config([Source("l.sh", expanded)], World(8, "chips"))) == (8, 8, 4, 1, 32, 2048, 65536)
    remote = f"PDB=4\npython3 multihost_runner.py --TPU_PREFIX=t --COMMAND='{LINE.format('$PDB')}'\n"
    with pytest.raises(CheckError) as error:
        check_config([Source("l.sh", remote)], World(8, "chips"))
    assert error.value.kind is ProblemKind.BAD_VALUE
