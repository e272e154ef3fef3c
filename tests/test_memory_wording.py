"""What the memory and time answers say, sentence by sentence, where a wrong word would mean a wrong number: the
terminal text of a command, as a user reads it."""

from __future__ import annotations

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.plain_text import plain_text

#: H100, 8 GPUs, ZeRO-3, b = 16 at L = 2.048: at most b = 6 fits, and 6 does not divide B / d = 16 · 1.
TOO_BIG_B = "llama3.1-8b gpu=h100 b=16 L=2048 gpus=8 zero=3 recompute=selective"
#: 64 H100, b = 2, a = 8 (B = 1.024): only b = 1 fits, and tp=2 would halve d to 32.
TP_ADVICE = "llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 zero=1"


def shown(command: str) -> str:
    document = answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document
    return plain_text(document, choices=False).replace("\u00a0", " ")


@pytest.mark.parametrize(
    ("command", "said", "not_said"),
    [
        # The per-token FLOPs use L for the sequence and h for the width, as the fields above them do (d stays the
        # data-parallel replicas, 64 here).
        (TP_ADVICE, ["FLOPs je Token = 6 · N_matmul + 12 · Schichten · L · h = 5,8 · 10¹⁰"], ["· s · d"]),
        (
            "regeln=korthikanti llama3.1-8b b=2 gpus=8 a=1 L=4096 gpu=h100",
            ["FLOPs je Token = 72 · Schichten · h² · (1 + L/6h + V/(16 · Schichten · h))"],
            ["s/6h"],
        ),
        # b and the GPUs a memory question leaves out are assumptions, not inputs.
        ("modell=llama3-8b gpu=h100", ["Micro-Batch je Gerät (b): 1 (angenommen)", "GPUs gesamt: 1 (angenommen)"], []),
        ("params=7B zero=3 gpus=8", ["GPUs gesamt: 8\n", "Micro-Batch je Gerät (b): 1 (angenommen)"], []),
        # Without L the sum lacks the activations; the sentence says so instead of naming an L as if it was used.
        (
            "modell=llama3-8b gpu=h100",
            ["Ohne Sequenzlänge fehlen die Aktivierungen in der Summe – gib sie an, z. B. L=4096."],
            ["Aktivierungen rechne ich mit der Sequenzlänge"],
        ),
        ("params=70B gpus=8", ["Ohne die Form des Modells fehlen die Aktivierungen in der Summe"], []),
        # One factor missing: „fehlt … damit“; two: „fehlen … mit ihnen“.
        ("llama3.1-8b b=2 gpus=8 L=4096", ["Für die effektive Batch-Größe fehlt noch a; damit rechne ich"], []),
        ("params=7B zero=3 gpus=8", ["Für die effektive Batch-Größe fehlen noch b und a; mit ihnen rechne ich"], []),
        # The advice (whole combinations from the planner) keeps B: b' divides b · a (b = 4 with a = 4), never b = 6.
        (
            f"{TOO_BIG_B} a=1",
            ["b=4 a=4:", "b und a sind so gewählt, dass B = b · d · a = 128 bleibt"],
            ["b=6"],
        ),
        # More TP on the same GPUs halves d; a makes up for it, and the advice says so.
        (TP_ADVICE, ["dass B = b · d · a = 1.024 bleibt, auch wo d sich mit TP oder PP ändert"], []),
        ("llama3.1-8b gpu=h100 b=1 L=4096 gpus=8", ["ohne a halte ich b · d = 8 fest"], []),
        # A given MFU gives the step time; it is not computed back from it.
        (
            f"{TP_ADVICE} mfu=55% budget=1T",
            ["Zeit je Schritt = FLOPs / (GPUs · Peak · MFU) = 4,9 · 10¹⁷ / (64 × 989,4 TFLOP/s × 55 %) = 13,9 s"],
            ["MFU = FLOPs je Schritt"],
        ),
        # A measured step time gives the MFU, with the time as typed.
        (f"{TP_ADVICE} step_time=13,75s", ["/ (13,75 s × 64 × 989,4 TFLOP/s) = 55,8 %"], ["Zeit je Schritt ="]),
        # A measured throughput gives the MFU by its own formula.
        (
            "llama3.1-8b b=2 gpus=8 a=8 L=8k gpu=h100 zero=1 tokens_per_second=100000",
            ["MFU = FLOPs je Token · Tokens/s / (GPUs · Peak) = 5,8 · 10¹⁰ × 100.000 / (8 × 989,4 TFLOP/s) = 73,2 %"],
            [],
        ),
        # Durations in the unit people think in, the singular after 1.
        (
            "llama3.1-8b b=2 gpus=8 a=8 L=8k gpu=h100 zero=1 budget=30M",
            ["Token-Budget 30 Mio.: ≈ 6 min auf 8 GPUs, 0,9 GPU-Stunden"],
            ["0 Tage"],
        ),
        ("llama3.1-8b b=2 gpus=8 a=8 L=8k gpu=h100 zero=1 budget=1,3B", ["≈ 4,7 h auf 8 GPUs"], ["0,2 Tage"]),
        ("llama3.1-8b b=2 gpus=8 a=8 L=8k gpu=h100 zero=1 budget=1T mfu=1%", ["≈ 23 Jahre auf 8 GPUs"], ["Tage"]),
        ("params=1B gpus=1 gpu=h100 budget=300M mfu=50%", ["1 GPU-Stunde"], ["1 GPU-Stunden"]),
        # Two significant digits for every FLOP count; a step of minutes says so.
        ("params=1B gpus=1 gpu=h100 budget=1B", ["(6,0 · 10¹⁸ FLOPs)"], ["(6 · 10¹⁸ FLOPs)"]),
        (
            "llama3.1-8b b=2 gpus=8 a=8 L=8k gpu=h100 zero=1 budget=1T mfu=1%",
            ["= 767 s (≈ 13 min)"],
            ["767,"],
        ),
        # With b = 1 given, „auch mit“, not „schon“.
        ("modell=llama3.1-8b gpu=h100 b=1 L=4096", ["Auch mit b = 1 passt es nicht.", "Was hilft"], ["Schon b = 1"]),
        (TP_ADVICE, ["Was hilft"], ["passt bis b ="]),
        # params= alone: every parameter counted alike, the embedding not apart – not „without the embedding“.
        (
            "params=7B zero=3 gpus=8",
            ["Nur params=: Alle Parameter zählen gleich und sind gleichmäßig auf TP · PP verteilt"],
            ["ohne Einbettung getrennt"],
        ),
        # Without recompute= FlashAttention is assumed and said as an assumption; typed, it is what was typed.
        (TP_ADVICE, ["(b = 2, L = 8.192, FlashAttention/selektive Neuberechnung angenommen)"], ["bzw."]),
        (
            f"{TP_ADVICE} recompute=selective",
            ["(b = 2, L = 8.192, selektive Neuberechnung, FlashAttention)"],
            ["angenommen)"],
        ),
        # Whose rules: „nach den Regeln von effbatch“, never a genitive s on a product's name.
        (TP_ADVICE, ["Geschätzt nach den Regeln von effbatch:"], ["effbatchs"]),
        (
            "regeln=korthikanti llama3.1-8b b=2 gpus=8 a=1 L=4096",
            ["ist recompute= nicht gesetzt, rechne ich ohne Neuberechnung"],
            ["ohne recompute= ohne"],
        ),
        (
            "regeln=megatron llama3.1-8b gpus=8 tp=2 b=1 a=1 L=4096 sequence_parallel=ja recompute=none",
            [
                "Die Formel von Megatron-LM setzt Sequenz-Parallelität (sequence_parallel=ja) und selektive "
                "Neuberechnung zusammen voraus; hier fehlt eines davon"
            ],
            ["Ohne sequence_parallel=ja", "Megatrons"],
        ),
        (
            "mixtral b=1 gpus=64 tp=2 ep=8 L=4096 a=8 gpu=h100",
            [
                "MoE nur grob: Die Experten sind auf EP · TP GPUs verteilt",
                "ohne ungleiche Lastverteilung durch den Router",
            ],
            ["Ungleichgewicht der Router"],
        ),
        # A shape typed whole has no name: its parameters once, not twice; Llama 3 is named as asked.
        (
            "layers=32 hidden=4096 heads=32 ffn=11008 vocab=32000 gpus=8",
            ["Parameter: 6,7 Mrd."],
            ["Modell: 6,7 Mrd. Parameter"],
        ),
        ("modell=llama3-8b gpu=h100", ["Modell: Llama 3 8B", "Speicher je GPU – Llama 3 8B"], ["Llama 3.1"]),
        # ep= with a dense model is said, not ignored.
        (
            "llama3.1-8b b=2 gpus=8 a=1 L=4096 ep=2 gpu=h100",
            ["ep= gilt nur für MoE-Modelle; Llama 3.1 8B hat keine Experten, ep= ändert hier nichts."],
            [],
        ),
        # The capacity a process gets, beside the data sheet's figure.
        (TP_ADVICE, ["H100 SXM: nutzbar 79,6 GiB laut Treiber (Datenblatt 80,0 GiB)."], []),
        # CPU memory is no line of the GPU's list: after the sum, and „Offload“ only where something is offloaded.
        (
            "llama3.1-8b b=2 gpus=8 a=1 L=4096 gpu=a100-40 zero=3 regeln=deepspeed",
            [
                "(A100 40GB)\nDazu im CPU-Speicher je Knoten (Schätzung von DeepSpeed für den Aufbau des Modells, ohne "
                "Offload; nicht in der Summe): 23,5 GiB"
            ],
            ["• CPU-Speicher", "(Offload"],
        ),
        (
            "llama3.1-8b b=2 gpus=8 a=1 L=4096 gpu=a100-40 zero=3 offload=params",
            [
                "• Gewichte: 0 (im CPU-Speicher)",
                "• Optimiererzustände: 0 (im CPU-Speicher)",
                "Dazu im CPU-Speicher je Knoten (Offload, nicht in der Summe): 104,7 GiB",
            ],
            [": 0 MiB"],
        ),
        # A TPU's devices are chips, in every line of the answer.
        (
            "llama3.1-8b b=2 gpus=256 a=8 L=4096 gpu=tpu-v5e budget=1T",
            [
                "Chips gesamt: 256",
                "Speicher je Chip – Llama 3.1 8B",
                "(Zeit · Chips · Peak)",
                "TFLOP/s je Chip",
                "auf 256 Chips, 119.880 Chip-Stunden",
                "Peak: 197 TFLOP/s je Chip (BF16, dense, ohne Sparsity",
            ],
            ["Speicher je GPU", "GPUs gesamt", "GPUs,", "GPU-Stunden", "je GPU"],
        ),
        ("modell=llama3-8b gpu=tpu-v5p", ["Chips gesamt: 1 (angenommen)", "Beschleuniger: TPU v5p"], ["GPU"]),
        # The peak named as such, not „Spitze … dicht“.
        (TP_ADVICE, ["Peak: 989,4 TFLOP/s je GPU (BF16, dense, ohne Sparsity; Quelle: NVIDIA H100"], ["dicht"]),
        # Memory typed as gpu_mem=: named as the key, GB said as converted.
        ("params=7B gpus=8 gpu_mem=24GiB", ["Summe auf der GPU: 110,6 GiB von 24,0 GiB nutzbar (gpu_mem)"], ["(GPU)"]),
        ("params=7B gpus=8 gpu_mem=24GB", ["von 22,4 GiB nutzbar (gpu_mem = 24 GB, umgerechnet)"], ["(GPU)"]),
    ],
)
def test_what_the_answer_says(command: str, said: list[str], not_said: list[str]) -> None:
    """Each sentence as a user reads it in the terminal; the wrong one it replaced is gone."""
    text = shown(command)
    for sentence in said:
        assert sentence in text
    for sentence in not_said:
        assert sentence not in text


def test_no_single_change_is_enough_then_a_combination_is_advised() -> None:
    """When no single change fits, the advice is whole combinations that fit together, never „reicht allein nicht“."""
    text = shown("llama3.1-70b gpu=h100 gpus=64 b=1 a=4 L=4096 zero=2")
    advice = text.split("Was hilft", 1)[1]
    assert "reicht allein nicht" not in text
    assert advice.count("\n• tp=") >= 1
