"""``effbatch check`` as CI and pre-commit run it: the text, ``--json`` against the schema, exit codes 0/1/2."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import IO

import fake_checks
import jsonschema
import pytest
import yaml

from effbatch.bot.check_runner import CHECK_MEMORY, CHECK_SECONDS, START_SECONDS, BoundedCheck, CheckPool
from effbatch.bot.serving.cli import check_here, main, run_check

from bot_process import BIN, clean_env, run_script

CONFIGS = Path(__file__).parent / "data" / "configs"
SCRIPTS = Path(__file__).parent / "data" / "scripts"
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def config(name: str) -> str:
    return str(CONFIGS / name)


# (arguments, exit code): 0 consistent (warnings allowed), 1 an error finding, 2 cannot be checked.
EXIT_CASES = [
    ([config("ds_consistent.json"), "--world-size", "8"], 0),
    ([config("train_gpt2.py"), "--nnodes", "1", "--nproc-per-node", "8"], 0),  # a warning only
    ([config("ds_mismatch.json"), "--world-size", "8"], 1),  # 256 != 4 * 1 * 8
    ([config("olmo.yaml"), "--world-size", "24"], 1),  # floored to 1.008
    ([config("axolotl.yaml")], 2),  # the world size is needed
    ([config("missing.yaml")], 2),  # no such file
    ([config("ds_filled.json"), "--world-size", "8", "--nnodes", "1"], 2),  # two ways to give the world
    ([config("ds_filled.json"), "--nnodes", "2"], 2),  # nodes without GPUs per node
    ([config("ds_filled.json"), "--world-size", "0"], 2),
]


@pytest.mark.parametrize(("args", "code"), EXIT_CASES)
def test_exit_codes(capsys: pytest.CaptureFixture[str], args: list[str], code: int) -> None:
    """CI can tell a consistent config from a refused one from one that cannot be checked."""
    assert run(capsys, *args)[0] == code


def test_text_answer_shows_the_formula_findings_and_where_values_came_from(capsys: pytest.CaptureFixture[str]) -> None:
    """OLMo on 24 GPUs: B = 1.008, the formula filled in, the floored finding with its fix, the lines read."""
    code, out, _ = run(capsys, config("olmo.yaml"), "--world-size", "24")
    assert code == 1
    assert "OLMo" in out
    assert "Effektive Batch-Größe (B): 1.008" in out
    assert "1.024 // 24 = 42" in out
    assert "global_train_batch_size: 1008 oder global_train_batch_size: 1032" in out.replace("`", "")
    assert "olmo.yaml:6)" in out  # global_train_batch_size is on line 6


def test_gpu_option_holds_the_memory_estimate_against_it(capsys: pytest.CaptureFixture[str]) -> None:
    """`--gpu h100`: the estimate's total against 80 GiB, a warning when it cannot fit, exit code 0 all the same
    (a warning, never an error); `--gpu v100` cannot be checked against (exit code 2, the known GPUs named)."""
    code, out, _ = run(capsys, config("memory/megatron_llama3_8b_h100_fp8.sh"), "--gpu", "h100")
    assert code == 0
    # allocated 93,9 GiB + allocator reserve + CUDA context and NCCL (core/memory/capacity.py), against the
    # 81.559 MiB an H100 SXM reports to a process
    assert "Summe auf der GPU: 99,7\u00a0GiB von 79,6\u00a0GiB nutzbar (H100 SXM)" in out
    assert "Warnung: Laut Schätzung passt dieser Lauf auf keine H100 SXM" in out
    code, out, err = run(capsys, config("memory/megatron_llama3_8b_h100_fp8.sh"), "--gpu", "v100")
    assert (code, out) == (2, "")
    assert "Die GPU „v100“ kenne ich nicht" in err


def test_refusal_goes_to_stderr_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """axolotl without a world size: the message names what is missing and how to give it."""
    code, out, err = run(capsys, config("axolotl.yaml"))
    assert (code, out) == (2, "")
    assert "axolotl" in err
    assert "--world-size" in err


JSON_CASES = [
    [config("ds_consistent.json")],  # no world size: the one the config requires
    [config("ds_mismatch.json"), "--world-size", "8"],
    [config("hf_launch.sh"), config("ds_auto.json")],
    [config("megatron_rampup.sh")],  # with a schedule
    [config("megatron_script.sh")],
    [config("nemo.yaml")],
    [config("torchtitan.toml"), "--world-size", "8"],
    [config("train_gpt2.py"), "--world-size", "3"],
    [config("axolotl.yaml"), "--world-size", "8"],
    [config("olmo.yaml"), "--world-size", "24"],
    [config("axolotl.yaml")],  # an error object
    [config("trl/10_silent_fractional_k.yaml")],  # a rollout whose k is a fraction
    [config("verl/08_ulysses_dynamic_bsz.sh")],  # a rollout with a dynamic batch size
    [config("verl/04_refuse_normalized_mini_vs_micro.sh")],  # a refused rollout: k null
    [config("openrlhf/02_plain_flat_pre_rename.sh")],
    [config("memory/megatron_llama3_8b_h100_fp8.sh"), "--gpu", "h100"],  # memory per GPU that does not fit
    [config("axolotl.yaml"), "--world-size", "8", "--gpu", "a100-80"],  # memory by a Hugging Face id
    [config("axolotl.yaml"), "--world-size", "8", "--gpu", "v100"],  # an unknown GPU: an error object
]


@pytest.mark.parametrize("args", JSON_CASES, ids=lambda args: " ".join(Path(a).name for a in args))
def test_json_matches_the_published_schema(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """schema/effbatch.schema.json describes exactly what check --json prints."""
    code, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert ("error" in data) == (code == 2)


def test_json_numbers_of_a_megatron_script(capsys: pytest.CaptureFixture[str]) -> None:
    """The documented keys with what Megatron-LM will use: 32 GPUs, d = 4, a = 32, B = 128, T = 262.144."""
    _, out, _ = run(capsys, config("megatron_script.sh"), "--json")
    data = json.loads(out)
    assert {key: data[key] for key in ("framework", "world_size", "data_parallel", "accumulation")} == {
        "framework": "megatron",
        "world_size": 32,
        "data_parallel": 4,
        "accumulation": 32,
    }
    assert (data["global_batch"], data["tokens_per_step"], data["ok"]) == (128, 262144, True)
    assert [f["code"] for f in data["findings"]] == ["megatron/sequence-parallel"]


def test_json_error_for_a_refused_config(capsys: pytest.CaptureFixture[str]) -> None:
    """The assertion finding is an error with DeepSpeed's own message, and ok is false."""
    _, out, _ = run(capsys, config("ds_mismatch.json"), "--world-size", "8", "--json")
    data = json.loads(out)
    assert data["ok"] is False
    [finding] = data["findings"]
    assert (finding["level"], finding["code"]) == ("error", "deepspeed/batch-assertion")
    assert "256 != 4 * 1 * 8" in finding["message"]


def test_schema_rejects_an_unknown_finding_level() -> None:
    """The check can fail: a level the schema does not document is refused."""
    data = {
        **dict.fromkeys(("world_size", "data_parallel", "micro_batch", "accumulation", "global_batch"), 8),
        **dict.fromkeys(("seq_len", "tokens_per_step"), None),
        "framework": "deepspeed",
        "ok": True,
        "read": [],
        "findings": [{"level": "fatal", "code": "deepspeed/x", "message": "m"}],
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_stdin_and_a_file_too_large(tmp_path: Path) -> None:
    """The installed script reads ``-`` from stdin; a file above 1 MiB is refused with a German message."""
    env = clean_env()
    line = "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2 --global-batch-size 64\n"
    result = run_script("effbatch", "check", "-", env=env, cwd=tmp_path, stdin=line)
    assert result.returncode == 0, result.stderr
    assert "Effektive Batch-Größe (B): 64" in result.stdout
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (1024 * 1024) + "\n")
    result = run_script("effbatch", "check", str(big), env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "zu groß" in result.stderr
    assert "höchstens 1\xa0MiB" in result.stderr  # Babel keeps number and unit together


def test_each_file_on_its_own_with_the_worst_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    """--each: every file its own run, unrelated files skipped with a note, exit 1 from the refused one."""
    pyproject = str(Path(__file__).resolve().parent.parent / "pyproject.toml")
    names = [config("ds_consistent.json"), config("ds_mismatch.json"), pyproject]
    code, out, err = run(capsys, "--each", "--world-size", "8", "--json", *names)
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["ok"] for line in lines] == [True, False]
    for line in lines:
        jsonschema.validate(line, SCHEMA)
    assert "pyproject.toml: keine Batch-Einstellungen eines Frameworks gefunden – übersprungen" in err


def test_pre_commit_hook_runs_the_installed_command() -> None:
    """.pre-commit-hooks.yaml names the console script and --each, so a repository's file list works."""
    [hook] = yaml.safe_load((Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text())
    assert (hook["id"], hook["entry"], hook["language"]) == ("effbatch-check", "effbatch check --each", "python")
    assert main([*hook["entry"].split()[1:], "--world-size", "8", config("ds_consistent.json")]) == 0


def test_paths_that_contain_the_command_stay_as_they_are(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A checkout under /tmp/effbatch-ci: the terminal spelling of /effbatch does not eat into the file's path."""
    folder = tmp_path / "effbatch-ci"
    folder.mkdir()
    (folder / "olmo.yaml").write_text((CONFIGS / "olmo.yaml").read_text())
    _, out, _ = run(capsys, str(folder / "olmo.yaml"), "--world-size", "24")
    assert "effbatch-ci/olmo.yaml:6)" in out  # a long path keeps its end: the file and the line


def test_the_schema_names_every_framework_read() -> None:
    """The JSON contract's framework enum is the registry's ids, no more, no fewer."""
    from effbatch.core.configs import FRAMEWORK_IDS

    def enums(node: object) -> list[list[str]]:
        if isinstance(node, dict):
            found = [node["enum"]] if "deepspeed" in node.get("enum", []) else []
            return found + [e for value in node.values() for e in enums(value)]
        if isinstance(node, list):
            return [e for value in node for e in enums(value)]
        return []

    [framework_enum] = enums(SCHEMA)
    assert set(framework_enum) == set(FRAMEWORK_IDS)


def test_a_check_places_the_batch_beside_the_laws(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A Megatron line with the model's shape and length: the answer has „Einordnung“ with N and D as formulas,
    spelled for the terminal; --json carries the same guidance object as the calculator's, valid by the schema."""
    script = tmp_path / "train.sh"
    script.write_text(
        "torchrun --nnodes 4 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 32 "
        "--hidden-size 4096 --seq-length 4096 --micro-batch-size 1 --global-batch-size 512 --train-iters 500000\n"
    )
    code, out, _ = run(capsys, str(script))
    assert code == 0
    assert "Einordnung" in out
    assert "N ≈ 12 · n_layer · d_model² = 12 × 32 × 4.096² = 6,4\u00a0Mrd. Parameter (ohne Embeddings)" in out
    assert "D = Schritte × Tokens je Schritt = 500.000 × 2.097.152 = 1\u00a0Bio. Tokens" in out
    assert "Step Law meint N ohne Embedding" not in out
    assert "(Vergleich: effbatch … vs gpt3-6.7b)" in out
    code, out, _ = run(capsys, "--json", str(script))
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert data["guidance"]["runs"] == ["gpt3-6.7b", "pythia-6.9b", "llama2-7b"]


def _capped(megabytes: int = 512) -> None:
    """In the child before exec: an address space of ``megabytes`` – a CLI reading /dev/zero whole fails in a
    second instead of taking the machine's memory (it once read 1,9 GB)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (megabytes * 2**20, megabytes * 2**20))


def check_cli(*args: str, cwd: Path, stdin: int | IO[bytes] = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    """The installed ``effbatch check`` with a memory cap and a hang guard (a FIFO without a writer hung forever)."""
    return subprocess.run(
        [str(BIN / "effbatch"), "check", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        env=clean_env(),
        cwd=cwd,
        timeout=30,
        preexec_fn=_capped,
    )


def special_files(tmp_path: Path) -> dict[str, str]:
    """Paths that are no regular file, as a pull request could add them (a symlink is committed as such)."""
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "fifo.yaml").symlink_to(fifo)
    (tmp_path / "folder.yaml").mkdir()
    return {
        "/dev/zero": "/dev/zero",
        "a FIFO without a writer": str(fifo),
        "a symlink to /dev/zero": str(tmp_path / "zero.yaml"),
        "a symlink to a FIFO": str(tmp_path / "fifo.yaml"),
        "a directory": str(tmp_path / "folder.yaml"),
    }


SPECIAL = ["/dev/zero", "a FIFO without a writer", "a symlink to /dev/zero", "a symlink to a FIFO", "a directory"]


@pytest.mark.parametrize("each", [False, True], ids=["one run", "--each"])
@pytest.mark.parametrize("case", SPECIAL)
def test_files_that_are_no_regular_file_are_refused(tmp_path: Path, case: str, each: bool) -> None:
    """A device, a FIFO, a directory (or a symlink to one) is refused at once in German, exit 2, without reading it
    and without a traceback – with ``--each`` too, where CI passes a pull request's file list."""
    path = special_files(tmp_path)[case]
    result = check_cli(*(["--each"] if each else []), "--world-size", "8", path, cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-500:]
    assert "keine gewöhnliche Datei" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_standard_input_is_read_up_to_the_cap(tmp_path: Path) -> None:
    """``-`` may be a pipe or a device: read up to the cap and one byte more, then refused as too large (before, the
    whole of /dev/zero was read until memory ran out)."""
    with open("/dev/zero", "rb") as zero:
        result = check_cli("--world-size", "8", "-", cwd=tmp_path, stdin=zero)
    assert result.returncode == 2, result.stderr[-500:]
    assert "Standardeingabe ist größer als 1\xa0MiB" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", ["~/ds.json", "./~/ds.json"])
@pytest.mark.parametrize("in_repository", [True, False], ids=["the repository has ~/ds.json", "it has none"])
def test_a_tilde_is_never_the_home_folder(tmp_path: Path, name: str, in_repository: bool) -> None:
    """CI and pre-commit pass a repository's file names: ``~/ds.json`` is the repository's folder ``~``, never the
    runner's home, so a pull request cannot probe (or have checked) a file there."""
    home, repository = tmp_path / "home", tmp_path / "repository"
    home.mkdir()
    home_config = '{"train_batch_size": 1000, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 125}'
    (home / "ds.json").write_text(home_config)  # consistent at 8 GPUs, its B unlike the repository's 256
    (repository / "~").mkdir(parents=True)
    if in_repository:
        (repository / "~" / "ds.json").write_text((CONFIGS / "ds_consistent.json").read_text())
    command = [str(BIN / "effbatch"), "check", "--world-size", "8", name]
    result = subprocess.run(command, capture_output=True, text=True, env=clean_env(HOME=str(home)), cwd=repository)
    shown = result.stdout + result.stderr
    assert "1000" not in shown
    assert "1.000" not in shown
    if in_repository:
        assert result.returncode == 0
        assert result.stdout.startswith("DeepSpeed: effektive Batch-Größe 256 Sequenzen")
    else:
        assert (result.returncode, result.stdout) == (2, "")
        assert name in result.stderr


#: A check that would not end, or would need more memory than its process may take: the stand-in the check process
#: runs, and what stderr says after the file's name.
STOPPED = [
    ("spins", "Die Prüfung hätte mehr als 0,5 s Rechenzeit gebraucht und wurde abgebrochen."),
    ("hungry", "Die Prüfung hätte mehr als 256\xa0MiB Speicher gebraucht und wurde abgebrochen."),
]


def runner(kind: str, work: str) -> CheckPool | BoundedCheck:
    """The bot's check process, or this process under the same bounds (what ``effbatch check`` uses)."""
    stand_in = getattr(fake_checks, work)
    if kind == "check process":
        return CheckPool(processes=1, seconds=0.5, memory=256 * 1024 * 1024, wait=START_SECONDS, work=stand_in, wall=60)
    return BoundedCheck(seconds=0.5, memory=256 * 1024 * 1024, work=stand_in)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["check process", "this process"])
@pytest.mark.parametrize(("work", "said"), STOPPED)
def test_a_check_is_stopped_as_in_slack(capsys: pytest.CaptureFixture[str], kind: str, work: str, said: str) -> None:
    """A check is stopped at its deadline or memory cap, in a check process as in the bot or in this process as
    ``effbatch check`` runs it: exit 2 and the German reason after the file's name, never a CI job held for
    minutes; afterwards the process checks again as before (the timer and the cap are lifted)."""
    checks = runner(kind, work)
    try:
        code = run_check([config("ds_consistent.json"), "--world-size", "8"], checks)
    finally:
        if isinstance(checks, CheckPool):
            checks.close()
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith(f"{config('ds_consistent.json')}: {said}")
    assert run(capsys, config("ds_consistent.json"), "--world-size", "8")[0] == 0


def test_the_command_checks_with_the_bots_deadline() -> None:
    """``effbatch check`` bounds each check by the bot's deadline, with four times a paste's memory (files are
    larger)."""
    bounded = check_here()
    assert (bounded.seconds, bounded.memory) == (CHECK_SECONDS, 4 * CHECK_MEMORY)


def test_set_reaches_the_check_process(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set`` is passed into the check process as the script's command line: b = 4, d = 8, B = 32."""
    code, out, _ = run(
        capsys, str(SCRIPTS / "hf_parser" / "run_clm.py"), "--world-size", "8", "--set", "per_device_train_batch_size=4"
    )
    assert code == 0
    assert "Effektive Batch-Größe (B): 32" in out
