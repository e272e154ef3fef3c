"""What ``effbatch check`` says, sentence by sentence, where a wrong word would mislead: the terminal text (and
GitHub annotations) a user receives from the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.serving.cli import main

CONFIGS = Path(__file__).parent / "data" / "configs"
MEMORY = CONFIGS / "memory"
CORPUS = Path(__file__).parent / "data" / "corpus"
SCRIPTS = Path(__file__).parent / "data" / "scripts" / "accelerate_loop"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["check", *args])
    out, err = capsys.readouterr()
    return (out + err).replace("\u00a0", " ")


LLAMAFACTORY_Z3 = [str(MEMORY / "llamafactory_llama3_full_sft.yaml"), str(MEMORY / "llamafactory_ds_z3_config.json")]


@pytest.mark.parametrize(
    ("args", "said", "not_said"),
    [
        # DeepSpeed's CPU estimate without offloading: named as DeepSpeed's, after the sum, never a GPU line.
        (
            [*LLAMAFACTORY_Z3, "--world-size", "8", "--gpu", "h100"],
            [
                "Summe auf der GPU: 22,4 GiB von 79,6 GiB nutzbar (H100 SXM)\nDazu im CPU-Speicher je Knoten "
                "(Schätzung von DeepSpeed für den Aufbau des Modells, ohne Offload; nicht in der Summe): 23,5 GiB"
            ],
            ["• CPU-Speicher", "(Offload)"],
        ),
        # A TPU's devices are chips, and a config run on TPUs is told to name one.
        (
            [str(MEMORY / "maxtext_v5e_llama2_7b.sh"), "--world-size", "16"],
            [
                "Speicher je Chip (Schätzung",
                "Ob es passt, sage ich, wenn du den Beschleuniger nennst: --gpu tpu-v5e",
            ],
            ["Speicher je GPU", "--gpu h100"],
        ),
        (
            [str(MEMORY / "maxtext_v5e_llama2_7b.sh")],
            [
                "Für MaxText brauche ich die Zahl der Chips; die Konfiguration nennt sie nicht. Gib sie an, z. B. "
                "--world-size 16."
            ],
            ["torchrun", "GPUs"],
        ),
        # DeepSpeed's estimate: whose activations, in a whole sentence; a config that recomputes part of them is not
        # also told FlashAttention is assumed.
        (
            [*LLAMAFACTORY_Z3, "--world-size", "8"],
            ["die Aktivierungen schätzt DeepSpeed nicht, die rechne ich nach den Regeln von effbatch."],
            ["sie sind nach", "DeepSpeeds"],
        ),
        (
            [str(MEMORY / "maxtext_v5e_llama2_7b.sh"), "--world-size", "16"],
            ["Die Konfiguration rechnet nur einen Teil der Aktivierungen neu"],
            ["FlashAttention/selektive Neuberechnung angenommen", "nehme ich FlashAttention an"],
        ),
        # „mit einer GPU sagen“ and „bei 40,0 GiB“ were loan translations; the GPU named, the need and the capacity.
        (
            [str(MEMORY / "megatron_llama3_8b_h100_fp8.sh")],
            ["Ob es passt, sage ich, wenn du die GPU nennst: --gpu h100"],
            ["mit einer GPU"],
        ),
        (
            [str(MEMORY / "torchtitan_llama3_8b.toml"), "--world-size", "8", "--gpu", "tpu-v5e"],
            ["auf keine TPU v5e, auch nicht mit b = 1: Er braucht ", " GiB je Gerät, die TPU v5e hat 16,0 GiB"],
            ["GiB Speicher je GPU bei"],
        ),
        # A branch on a file test names the test, not „?“, and two variants are „beide“; places are cut at a folder,
        # and a SLURM header's world size says nodes and GPUs with the header's line.
        (
            sorted(str(p) for p in (CORPUS / "axolotl" / "corpusreasoning-hotpotqa-k20-fullft").iterdir()),
            [
                "Ab Zeile 32 von run_hotpotqa_k20_fullft_wd.sh verzweigt das Skript je nach "
                '[ -f "$FULLFT_OUTPUT/model.safetensors" ] (steht erst beim Start fest); beide Varianten ergeben '
                "dieselbe Batch-Größe.",
                "micro_batch_size = 1 (…/hotpotqa_k20_std_qboth_qwen_fullft_wd.yml:16)",
                "world_size = 4 (#SBATCH 1 Knoten × 4 GPUs, …/",
                "/run_hotpotqa_k20_fullft_wd.sh:2)",
            ],
            ["je nach ?", "Varianten (2)", "…orpus", "(… × 4"],
        ),
        # Two lines of one file: „Zeilen 17 und 18“, not a product; a launcher named as the launch line.
        ([str(CONFIGS / "verl" / "16_dapo.sh")], ["world_size = 8 (", "16_dapo.sh, Zeilen 17 und 18)"], ["17 · 18"]),
        (
            sorted(str(p) for p in (CORPUS / "deepspeed" / "glm-blocklm-large").iterdir()),
            ["world_size = 256 (Startzeile deepspeed, "],
            ["(deepspeed, "],
        ),
        # A value from --set is named as --set, not as a launch line that is not there.
        (
            [str(SCRIPTS / "train.py"), "--set", "per_device_train_batch_size=32", "--world-size", "8"],
            ["DataLoader.batch_size = 32 (", "aus --set per_device_train_batch_size=32 statt der Vorgabe 8"],
            ["in der Startzeile"],
        ),
        # A --set name no script reads is said, with the names read; a value its type refuses too.
        (
            [str(SCRIPTS / "train.py"), "--set", "foo=32", "--world-size", "8"],
            [
                "--set foo=32: foo kommt in ",
                "train.py nicht vor (gelesen werden per_device_train_batch_size und gradient_accumulation_steps).",
            ],
            ["Effektive Batch-Größe"],
        ),
        (
            [str(SCRIPTS / "train.py"), "--set", "per_device_train_batch_size=abc", "--world-size", "8"],
            ["--set per_device_train_batch_size=abc: „abc“ ist keine ganze Zahl."],
            ["setze den Wert"],
        ),
        (
            [str(CONFIGS / "ds_consistent.json"), "--set", "foo=3", "--world-size", "8"],
            ["--set foo=3: --set gilt für Python-Skripte, und unter den Dateien ist keins."],
            [],
        ),
        # Hydra: an override says what it replaced, and the world size where each factor came from.
        (
            sorted(str(p) for p in (CONFIGS / "nemo" / "overrides").iterdir()),
            [
                "model.global_batch_size = 256 (",
                "/overrides/run.sh:4), überschreibt 64 (",
                "world_size = 16 (trainer.num_nodes 2 × trainer.devices 8, ",
                "/overrides/run.sh:4 und ",
                "/overrides/base.yaml:3)",
            ],
            ["main.yaml)"],
        ),
        # verl's DAPO: the number of rounds agrees with its count, the trained sequences say what n counts.
        (
            [str(CONFIGS / "verl" / "16_dapo.sh")],
            ["mindestens 1 Runde je Schritt; trainiert wird auf genau 256 Prompts × n Antworten."],
            ["Runde(n)"],
        ),
        # The world size given overrides the launch line's: „Gelesen“ says which wins.
        (
            [str(SCRIPTS / "run.sh"), str(SCRIPTS / "train.py"), "--world-size", "8"],
            ["world_size = 8 (--world-size 8), überschreibt 4 (Startzeile accelerate, "],
            [],
        ),
        # DeepSpeed's "auto" overridden is a value, quoted.
        (
            [*sorted(str(p) for p in (CORPUS / "huggingface" / "qwen-finetune-ds").iterdir()), "--world-size", "8"],
            ["train_micro_batch_size_per_gpu = 1 (", '/finetune_ds.sh:73), überschreibt "auto" ('],
            ["überschreibt auto"],
        ),
        # TRL's SFT config named by the launch line's --config: its max_seq_length (the old name) is L before 0.20.
        (
            sorted(str(p) for p in (CORPUS / "accelerate" / "r1v-sft-clevr").iterdir()),
            [
                "Sequenzlänge (L): 4.096",
                "Tokens je Optimierer-Schritt (T): 524.288",
                "max_seq_length ist der alte Name",
            ],
            ["max_length ist nicht angegeben"],
        ),
        (
            [
                *sorted(str(p) for p in (CORPUS / "accelerate" / "r1v-sft-clevr").iterdir()),
                "--framework-version",
                "trl==0.21.0",
            ],
            ["Sequenzlänge (L): 1.024", "max_length ist nicht angegeben"],
            [],
        ),
        # The world size missing for a framework with an article: „für den Hugging Face Trainer“.
        (
            [str(CONFIGS / "hf_args.yaml")],
            ["Für den Hugging Face Trainer brauche ich die Zahl der GPUs"],
            ["Für Hugging Face Trainer"],
        ),
    ],
)
def test_what_the_check_says(
    capsys: pytest.CaptureFixture[str], args: list[str], said: list[str], not_said: list[str]
) -> None:
    """Each sentence as the terminal shows it; the misleading one it replaced is gone."""
    text = run(capsys, *args)
    for sentence in said:
        assert sentence in text
    for sentence in not_said:
        assert sentence not in text


def test_a_finding_is_annotated_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A run that fits on no TPU v5e: one warning, so one annotation in a pull request."""
    text = run(
        capsys, str(MEMORY / "torchtitan_llama3_8b.toml"), "--world-size", "8", "--gpu", "tpu-v5e", "--format", "github"
    )
    assert text.count("memory/does-not-fit") == 1


def test_a_branch_is_annotated_at_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    """The branch's annotation sits at the script's line that branches, not at a value of another file."""
    folder = CORPUS / "axolotl" / "corpusreasoning-hotpotqa-k20-fullft"
    text = run(capsys, *sorted(str(p) for p in folder.iterdir()), "--format", "github")
    [annotation] = [line for line in text.splitlines() if "script/branches-agree" in line]
    assert f"file={folder / 'run_hotpotqa_k20_fullft_wd.sh'},line=32,".replace(":", "%3A") in annotation


def test_a_framework_with_an_article_is_quoted_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Trainer's own message: „Meldung des Hugging Face Trainers“, not „Meldung von Hugging Face Trainer“."""
    (tmp_path / "args.yaml").write_text("per_device_train_batch_size: 4\n")
    (tmp_path / "ds.json").write_text('{"train_micro_batch_size_per_gpu": 8}')
    text = run(capsys, str(tmp_path / "args.yaml"), str(tmp_path / "ds.json"), "--world-size", "8")
    assert "Meldung des Hugging Face Trainers: " in " ".join(text.split())
    assert "Meldung von Hugging Face Trainer" not in text


def test_an_unpinned_release_is_said_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """A finding of some TRL releases, no pin: „Betrifft TRL ab …“ as a sentence, the change named once; the
    counted-prompts finding shows its symbols beside its numbers."""
    text = " ".join(run(capsys, str(CONFIGS / "trl" / "07_removed_max_prompt_length.yaml")).split())
    assert "Betrifft TRL ab 0.28.0; welche Version läuft, geht aus keiner Datei hervor." in text
    assert text.count("#4847") == 1
    assert "Erst ab" not in text


def test_old_trl_counting_shows_its_symbols(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before TRL 0.15 per_device_train_batch_size counted prompts: the batch it would be, symbols first."""
    (tmp_path / "g.yaml").write_text(
        "reward_funcs: [accuracy_reward]\nnum_processes: 2\nper_device_train_batch_size: 4\n"
    )
    text = " ".join(run(capsys, str(tmp_path / "g.yaml")).split())
    assert "wären es B = b · n · d · a = 4 × " in text


def test_an_unknown_gpu_lists_every_known_one(capsys: pytest.CaptureFixture[str]) -> None:
    """`--gpu h999`: all twelve known GPUs named, not „und 8 weitere“."""
    text = " ".join(run(capsys, str(MEMORY / "megatron_llama3_8b_h100_fp8.sh"), "--gpu", "h999").split())
    assert "h100, h200, b200, a100-40, a100-80, l40s, mi300x, tpu-v5e, tpu-v5p, h100-96, a800 und h800" in text
    assert "weitere" not in text
