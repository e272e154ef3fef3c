"""What a user receives for a memory or time question: the terminal, Slack's blocks and ``--json``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering import views
from effbatch.bot.rendering.answers import answer_command, plan_document
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.formatting import size
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.rendering.whatif import plan_choices
from effbatch.bot.serving.cli import json_answer
from effbatch.core import InputError, PlanCommand, command_text, parse_command, plan
from effbatch.core.memory import MODELS

import slack_payloads

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())


def text_of(command: str) -> str:
    return plain_text(answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)


def test_memory_question_needs_no_batch() -> None:
    """``params=7B zero=3 gpus=8``: the model states per GPU, and the hint that activations need the shape."""
    answer = answer_command("params=7B zero=3 gpus=8", Visibility.IN_CHANNEL)
    assert answer.kind is AnswerKind.MEMORY
    shown = plain_text(answer.document)
    assert "Speicher je GPU" in shown
    for term in ("Gewichte", "Gradienten", "Optimiererzustände"):
        assert term in shown
    assert "Ohne die Form des Modells fehlen die Aktivierungen in der Summe" in shown
    assert f"Summe: {size(14_000_000_000)}" in shown  # 16 bytes × 7B / 8 (ZeRO paper, stage 3)


def test_the_calculator_answer_gains_the_memory_section() -> None:
    """B and T as before, then Speicher je GPU, whether it fits, what helps and the training time."""
    shown = text_of("llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1 budget=1T")
    assert "B = b · d · a = 2 × 8 × 4 = 64 Sequenzen" in shown
    for heading in (
        "Speicher je GPU – Llama 3.1 8B",
        "Aktivierungen:",
        "Passt nicht",
        "Was hilft",
        "Trainingszeit",
    ):
        assert heading in shown
    advice = shown.split("Was hilft", 1)[1]
    assert "`tp=" not in advice  # the terminal shows commands as typed
    assert re.search(r"^• tp=\d+ pp=\d+ .*zero=\d recompute=\w+ b=\d+ a=\d+: ", advice, re.MULTILINE)
    assert "Zeit je Schritt (vorhergesagt) = Rechnen" in shown  # the step predicted part by part
    assert "– ein Ergebnis, keine Annahme" in shown
    assert "Angenommen: Die Matrixprodukte erreichen" in shown
    assert "MFU 40\u00a0% angenommen" not in shown


def test_a_peak_without_a_gpu_assumes_the_mfu() -> None:
    """``peak=`` without ``gpu=``: no card to model, so the 40 % MFU is assumed and the answer says so."""
    assert "MFU 40\u00a0% angenommen" in text_of("llama3.1-8b b=2 gpus=8 a=4 L=8k peak=989T")


def test_existing_answers_stay_as_they_were() -> None:
    """``params=`` with b, d, a and no memory key: the Einordnung as before, no memory section."""
    shown = text_of("8 64 4 4096 params=7B budget=2T")
    assert "Speicher je GPU" not in shown
    assert "memory" not in json_answer("8 64 4 4096 params=7B budget=2T")


def test_megatron_numbers_reach_the_answer() -> None:
    """``regeln=megatron``: the sum shown is Megatron's own report (Llama 3.1 70B, TP 8, PP 4, 256 GPUs, the
    distributed optimizer, SP, selective; Megatron-LM d98e8a6 ran: 17.036.590.080 + 21.508.423.680 bytes)."""
    command = (
        "regeln=megatron llama3.1-70b gpus=256 tp=8 pp=4 b=1 a=16 L=8192 distributed_optimizer=ja "
        "sequence_parallel=ja recompute=selective"
    )
    assert f"Summe: {size(17036590080 + 21508423680)}" in text_of(command)
    data = json_answer(command)
    assert isinstance(data, dict)
    assert data["memory"]["model_states_bytes_per_gpu"] == 17036590080
    assert data["memory"]["activations_bytes"] == 21508423680
    assert data["memory"]["rules"] == "megatron"


JSON_COMMANDS = [
    "params=7B zero=3 gpus=8",
    "params=7B zero=3 gpus=8 gpu=h100 budget=1T",
    "llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1 budget=1T",
    "8 64 4 4096 modell=llama2-7b gpu=a100-80 step_time=40s",
    "layers=32 hidden=4096 heads=32 ffn=11008 vocab=32000 b=1 gpus=8 L=4096 gpu_mem=80GiB",
    "mixtral b=1 gpus=64 tp=2 ep=8 L=4096 a=8 gpu=h100 regeln=deepspeed zero=3 offload=optimizer",
]


@pytest.mark.parametrize("command", JSON_COMMANDS)
def test_json_follows_the_schema(command: str) -> None:
    """``--json``: objects ``memory`` and ``time`` as schema/effbatch.schema.json describes them."""
    data = json_answer(command)
    jsonschema.validate(data, SCHEMA)
    assert isinstance(data, dict)
    assert "memory" in data


def test_json_leaves_out_what_the_input_cannot_decide() -> None:
    """Without a GPU no ``fits``; without the shape no activations; without a peak no step time."""
    memory = json_answer("params=7B zero=3 gpus=8")
    assert isinstance(memory, dict)
    assert {"fits", "largest_micro_batch", "activations_bytes"}.isdisjoint(memory["memory"])
    assert "time" not in memory
    fitted = json_answer("llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1")
    assert isinstance(fitted, dict)
    assert fitted["memory"]["fits"] is False
    assert fitted["memory"]["largest_micro_batch"] == 0
    assert fitted["time"]["mfu_assumed"] is False
    assert fitted["time"]["mfu_source"] == "predicted"
    assert fitted["time"]["breakdown"]["seconds"]["compute"] > 0


def test_step_time_gives_mfu() -> None:
    """``step_time=`` → MFU = FLOPs a step / (time · GPUs · peak), not assumed."""
    data = json_answer("8 64 4 4096 modell=llama2-7b gpu=a100-80 step_time=40s")
    assert isinstance(data, dict)
    time = data["time"]
    assert time["mfu_assumed"] is False
    assert time["mfu"] == pytest.approx(time["flops_per_step"] / (40 * 64 * 312e12))


def test_blocks_stay_within_slacks_limits() -> None:
    """Section texts at most 3.000 characters, context texts at most 2.000 (Slack refuses longer ones)."""
    for command in JSON_COMMANDS:
        for block in message(answer_command(command, Visibility.IN_CHANNEL).document)["blocks"]:
            texts: list[Any] = [block.get("text", {}), *block.get("fields", []), *block.get("elements", [])]
            for text in texts:
                if isinstance(text, dict) and "text" in text:
                    assert len(text["text"]) <= (2000 if block["type"] == "context" else 3000)


def test_canonical_command_keeps_the_memory_keys() -> None:
    """What-if buttons carry the whole command: memory keys come back when it is read again."""
    typed = "llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1 recompute=full mfu=45% regeln=korthikanti"
    parsed = parse_command(typed)
    assert isinstance(parsed, PlanCommand)
    again = parse_command(command_text(parsed.request))
    assert isinstance(again, PlanCommand)
    assert again.request == parsed.request
    choices = plan_choices(plan(parsed.request))
    assert choices
    assert all("gpu=h100" in choice.value and "zero=1" in choice.value for choice in choices)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("modell=llama9", "Meintest du `llama3-8b`"),
        ("params=7B gpus=8 regeln=deepspeed", "`regeln=deepspeed` kennt nur ZeRO-2 und ZeRO-3"),
        ("params=7B gpus=8 zero=2 offload=params", "`offload=params` braucht `zero=3`"),
        ("layers=32 hidden=4096 gpus=8", "fehlen noch `heads=`, `ffn=` und `vocab=`"),
        ("params=7B gpus=8 mfu=40% step_time=3s", "Gib nur eins von `mfu=` und `step_time=` an"),
        ("params=7B gpus=8 budget=1T mfu=40%", "`gpu=h100` oder `peak=989T`"),
        ("params=7B gpus=8 gpu=h900", "Möglich: `h100`"),
        ("params=7B regeln=megatron", "`regeln=megatron` rechnet mit der Form des Modells"),
    ],
)
def test_problems_in_german(command: str, expected: str) -> None:
    """Every problem of the memory keys has its own German sentence, naming the key."""
    with pytest.raises(InputError):
        parse_command(command)
    answer = answer_command(command, Visibility.IN_CHANNEL)
    assert answer.kind is AnswerKind.INPUT_ERROR
    shown = " ".join(str(part) for part in answer.document.parts)
    assert expected in shown


def test_help_names_every_model() -> None:
    """``hilfe speicher`` lists the models, the GPUs and the conventions."""
    shown = text_of("hilfe speicher")
    for name in MODELS:
        assert name in shown
    for rules in ("regeln=megatron", "regeln=deepspeed", "regeln=korthikanti"):
        assert rules in shown


@pytest.mark.parametrize("topic", ["skalierung", "scaling", "plane", "plan"])
def test_help_on_scaling_and_planning_shows_how_to_ask(topic: str) -> None:
    """``hilfe skalierung`` and ``hilfe plane`` open the memory and time help, which says how to ask for both."""
    shown = text_of(f"hilfe {topic}")
    assert "skalierung am Ende zeigt Schrittzeit, Tokens/s und Effizienz" in shown
    assert "plane MODELL gpus= gpu= B= L= sucht TP, PP, CP" in shown


def test_gpu_key_stays_the_count_with_a_number() -> None:
    """``gpu=8`` is still the GPU count (an alias of ``gpus=``); ``gpu=h100`` names the GPU."""
    counted = parse_command("b=1 a=1 gpu=8")
    assert isinstance(counted, PlanCommand)
    assert counted.request.gpus == 8
    named = parse_command("params=7B gpus=8 gpu=h100")
    assert isinstance(named, PlanCommand)
    assert named.request.training is not None
    assert named.request.training.gpu == "h100"


def test_form_chooses_model_and_gpu_and_keeps_the_other_keys() -> None:
    """The modal offers the model and the GPU; the other memory keys of an answer travel in its metadata."""
    parsed = parse_command("b=2 d=8 a=4 L=8k zero=1 recompute=full")
    assert isinstance(parsed, PlanCommand)
    view = views.form_view(Visibility.IN_CHANNEL, None, parsed.request, replace=True).to_dict()
    state = slack_payloads.form_state(view, {"model": "llama3.1-8b", "gpu": "h100"})
    result, _, _ = views.read_form({**view, "state": {"values": state}})
    training = result.request.training
    assert training is not None
    assert (training.model, training.gpu, training.zero) == ("llama3.1-8b", "h100", 1)
    shown = plain_text(plan_document(result, Visibility.IN_CHANNEL))
    assert "Speicher je GPU – Llama 3.1 8B" in shown
    assert "volle Neuberechnung" in shown


SHAPE = "layers=8 hidden=1024 heads=8 vocab=32000 ffn=4096 gpu=h100 L=2k gpus=8"
MOE = f"{SHAPE} experts=8 moe_ffn=1024"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        # Llama 3.1 8B has 32 layers: 64 stages would leave stages without one
        ("llama3.1-8b gpus=64 pp=64 gpu=h100 L=4k", "pp=64 Pipeline-Stufen, aber das Modell hat nur 32 Schichten"),
        ("llama3.1-8b gpus=8 pp=2 vpp=100 gpu=h100 L=4k", "vpp=100 teilt die 32 Schichten nicht"),
        (f"{MOE} topk=16", "topk=16 wählt mehr Experten je Token aus, als es gibt: Das Modell hat 8 Experten"),
        (f"{MOE} topk=2 ep=3 gpus=24", "ep=3 verteilt die 8 Experten nicht gleichmäßig"),
        # Megatron's expert grid: world_size % (etp · ep · pp) raises (parallel_state.py lines 874-884)
        (f"{MOE} topk=2 ep=4 etp=4 pp=2", "etp=4 passt nicht zu den GPUs"),
        (f"{MOE} topk=2 ep=8 expert_tensor_parallel_size=2", "etp · ep = 16 GPUs je Pipeline-Stufe"),
        (f"{SHAPE} kv_heads=16", "kv_heads=16 passt nicht zu heads=8"),
        (f"{SHAPE} kv_heads=3", "kv_heads=3 passt nicht zu heads=8"),
        (SHAPE.replace("heads=8", "heads=7"), "heads=7 teilt die Breite hidden = 1.024 nicht"),
        ("llama3.1-8b gpus=8 offload=optimizer zero=0 gpu=h100 L=4k", "offload=optimizer braucht zero=1"),
        # the memory alone (no B asked for) is held to the split the batch answer holds it to
        ("llama3.1-8b gpus=8 tp=8 pp=4 gpu=h100 L=4k", "8 GPUs lassen sich nicht auf TP · PP · CP · SP"),
        ("llama3.1-8b gpus=16 tp=8 pp=4 zero=1 regeln=megatron L=4k", "16 GPUs lassen sich nicht auf TP · PP"),
        # an MFU above 100 %: a unit mistaken
        ("llama3.1-8b b=1 gpus=8 a=4 L=4k gpu=h100 step_time=1ms", "Mit 0,001 s je Schritt ergäbe sich eine MFU"),
        ("llama3.1-8b b=1 gpus=8 a=4 L=4k gpu=h100 tps=1e6", "Mit 1.000.000 Tokens je Sekunde ergäbe sich"),
    ],
)
def test_a_set_up_that_cannot_exist_is_refused_naming_its_values(command: str, said: str) -> None:
    """No „Passt“ for a set-up no run can have: the answer says which values do not go together, and why."""
    answer = answer_command(command, Visibility.IN_CHANNEL, command="effbatch")
    assert answer.kind is AnswerKind.INPUT_ERROR
    shown = plain_text(answer.document).replace("`", "")
    assert said in shown
    assert "Passt" not in shown
    with pytest.raises(InputError):  # the terminal's JSON says the same as its error, never a traceback
        json_answer(command)


def test_an_moe_shape_of_experts_only_needs_no_dense_ffn() -> None:
    """A typed MoE shape (``experts=`` and ``moe_ffn=``; every layer MoE, as Grok-1's 64 layers of 8 experts) is
    answered without ``ffn=``, and counts the same as with a dense width that no layer uses."""
    grok = "layers=64 hidden=6144 heads=48 kv_heads=8 vocab=131072 experts=8 topk=2 moe_ffn=32768"
    without = plain_text(
        answer_command(f"{grok} gpus=512 tp=4 pp=8 ep=8 L=8k gpu=h100", Visibility.IN_CHANNEL).document
    )
    assert "Parameter: 316,5\xa0Mrd." in without
    with_ffn = f"{grok} ffn=32768 gpus=512 tp=4 pp=8 ep=8 L=8k gpu=h100"
    assert plain_text(answer_command(with_ffn, Visibility.IN_CHANNEL).document) == without


def test_the_largest_micro_batch_stops_at_the_bound_of_b() -> None:
    """A tiny model on an H100 would take millions of sequences a micro-batch: the answer stops at b's bound and
    says so, instead of a number no command could take."""
    command = "layers=2 hidden=64 heads=1 vocab=100 ffn=256 L=128 gpu=h100"
    assert "selbst b = 65.536 passt – mehr als diese Obergrenze für b rechne ich nicht" in text_of(command)
    data = json_answer(command)
    assert isinstance(data, dict)
    jsonschema.validate(data, SCHEMA)
    assert data["memory"]["largest_micro_batch"] == 65_536
    assert data["memory"]["largest_micro_batch_at_bound"] is True


@pytest.mark.parametrize(("typed", "rate"), [("1e5", "100.000"), ("1,5e5", "150.000"), ("2e2k", "200.000")])
def test_a_throughput_may_be_written_with_an_exponent(typed: str, rate: str) -> None:
    """``tps=1e5``: exponents as the help documents them, for rates too (with or without k and M)."""
    shown = text_of(f"llama3.1-8b b=1 gpus=8 a=4 L=4k gpu=h100 tps={typed}")
    assert "keine Zahl" not in shown
    assert "MFU =" in shown or rate in shown
