"""What the memory and time sections say: Speicher je GPU, Trainingszeit, what to change.

Templates take formatted numbers; ``bot.rendering.memory`` fills them in. Glossary: Gewichte,
Gradienten, Optimiererzustände, Aktivierungen, Speicher je GPU.
"""

from __future__ import annotations

from collections.abc import Mapping

from effbatch.bot.texts.glossary import COMMAND

MEMORY_TITLE = "Speicher je {device} – {what}"
MEMORY_SUMMARY = "Speicher je {device}: {total} ({what})"
MEMORY_DOCUMENT_TITLE = "Speicher je {device}: {total}"
PARAMS_WHAT = "{params} Parameter"
WEIGHTS = "Gewichte: {value}"
GRADIENTS = "Gradienten: {value}"
OPTIMIZER = "Optimiererzustände: {value}"
GATHER = "Gesammelte größte Schicht (ZeRO-3): {value}"
ACTIVATIONS = "Aktivierungen: {value}"
ACTIVATIONS_DETAIL = "(b = {micro}, L = {seq_len}, {recompute})"
ACTIVATIONS_KERNEL_DETAIL = "(b = {micro}, L = {seq_len}, {recompute}, {attention})"
RECOMPUTE_NAMES = {
    "none": "ohne Neuberechnung",
    "selective": "selektive Neuberechnung",
    #: recompute= not given: FlashAttention assumed, which keeps what selective recomputation keeps.
    "assumed": "FlashAttention/selektive Neuberechnung angenommen",
    "full": "volle Neuberechnung",
}
ATTENTION_NAMES = {
    "flash": "FlashAttention",
    "eager": "Eager-Attention (speichert die s × s-Scores)",
    "triton": "FlashAttention in Triton",
}
LOGITS = "davon Logits und Loss: {value}"
KV_CACHE = "davon K und V jeder Schicht (`use_cache`, im Ausgabeobjekt des Modells): {value}"
BUFFERS = "Puffer von {framework}: {value}"
#: Gradients and activations never held in full at once: the step frees the gradients (one micro-batch a step).
OVERLAP = (
    "abzüglich {value}: Gradienten und Aktivierungen nie zugleich ganz – `zero_grad()` gibt die Gradienten nach dem "
    "Schritt frei, der Backward legt sie Schicht für Schicht an, während er die Aktivierungen freigibt"
)
FRAMEWORK_NAMES: Mapping[str, str] = {
    "megatron": "Megatron-LM",
    "deepspeed": "DeepSpeed",
    "fsdp": "PyTorch FSDP",
    "fsdp2": "PyTorch FSDP2",
    "torchtitan": "torchtitan",
    "ddp": "PyTorch DDP",
    "huggingface": "Hugging Face (Trainer)",
    "lightning": "Lightning Fabric (LitGPT)",
    "olmo_core": "OLMo-core",
}
#: How the states are held with Apex's DistributedFusedAdam in place of the framework's optimizer (NeMo's
#: ``optim.name: distributed_fused_adam``; core/memory/holders/megatron.py).
DISTRIBUTED_FUSED_ADAM_STATES = (
    "mit Apex' DistributedFusedAdam statt des eigenen Optimierers: BF16-Gewichte 2 Byte je Parameter, ein ganzer "
    "Gradientenpuffer im Datentyp der Synchronisation (`grad_sync=`) und sein Anteil ÷ d, Adam im Datentyp des "
    "Optimierers (`optim_dtype=`) ÷ d, dazu die Master-Kopie oder ihre 16-Bit-Reste ÷ d; kein FP32-Gradientenpuffer "
    "von Megatron-core."
)
#: How each framework holds its states, as its source code allocates them (core/memory/holders/).
FRAMEWORK_STATES: Mapping[str, str] = {
    "megatron": (
        "BF16-Gewichte 2, FP32-Gradienten 4, FP32-Master und Adam 12 Byte je Parameter, mit verteiltem Optimierer "
        "÷ d (ohne `distributed_optimizer=` angenommen, wie in den Rezepten von NeMo und Megatron-Bridge); Loss "
        "vokabular-parallel (÷ TP), ohne Angabe keine Neuberechnung."
    ),
    "deepspeed": (
        "ZeRO wie in deepspeed/runtime/zero: BF16-Gewichte und -Gradienten, FP32-Master, FP32-Gradient und Adam "
        "16 Byte je Parameter geteilt nach Stufe (Stufe 0: BF16_Optimizer), dazu Reduce-Bucket (5 · 10⁸ Elemente) "
        "und bei ZeRO-3 die gesammelten Parameter (bis 10⁹) und der Prefetch."
    ),
    "fsdp": (
        "FP32-Parameter, -Gradienten und Adam geteilt (16 Byte ÷ d), zwei gesammelte BF16-Einheiten; bei "
        "Akkumulation ohne Sync bleiben die Gradienten ganz (4 Byte je Parameter)."
    ),
    "fsdp2": (
        "fully_shard mit MixedPrecisionPolicy: FP32-Parameter, -Gradienten und Adam geteilt (16 Byte ÷ d), "
        "zwei gesammelte BF16-Blöcke und der FP32-Gradient eines Blocks."
    ),
    "torchtitan": (
        "FSDP2 (16 Byte ÷ d, zwei gesammelte BF16-Blöcke), mit PP ungeteilte Stufen; selektive Neuberechnung "
        "speichert jedes zweite Matmul; Loss vokabular-parallel."
    ),
    "ddp": (
        "FP32-Gewichte 4, Gradienten 4 und die Gradienten-Buckets von DDP 4, Adam 8 Byte je Parameter; die "
        "BF16-Kopien der Gewichte, die Autocast anlegt, bleiben bis zum Backward."
    ),
    "huggingface": (
        "ohne ZeRO wie DDP (FP32-Gewichte 4, Gradienten 4, Buckets 4, Adam 8 Byte je Parameter, BF16-Kopien "
        "von Autocast); mit `zero=2|3` FSDP über Accelerate, das bei Akkumulation ohne Sync die Gradienten ganz hält."
    ),
    "lightning": (
        "auf einer GPU das Modell allein, sonst FSDP mit `no_backward_sync`: bei Akkumulation bleiben die "
        "Gradienten ganz; mit `dtype=bf16-true` (LitGPTs Vorgabe) Gewichte, Gradienten und Adam in BF16; Loss in "
        "Stücken von 128 Token (6 Byte je Logit)."
    ),
    "olmo_core": (
        "FSDP2 (16 Byte ÷ d, zwei gesammelte BF16-Blöcke), ohne Angabe keine Neuberechnung; mit `compile=ja` "
        "ist der Loss mit der Ausgabeschicht kompiliert (4 Byte je Logit)."
    ),
}
FRAMEWORK_LINE = "Gehalten wie von {framework}: {states}"
TOTAL = "Summe: {total}"
#: The allocated peak and what PyTorch's counters miss, each assumed number said where it stands.
ON_DEVICE = (
    "{on} = belegt {total} + Reserve des Allokators {reserve} (angenommen {share}) + {context_name} "
    "{context} (angenommen {base} + {per_group} je Kommunikator × {groups}){userbuffers} = {device}"
)
#: Transformer Engine's userbuffers under TP communication overlap: outside PyTorch's allocator, on the device.
USERBUFFERS = " + Userbuffers von Transformer Engine {value} (TP-Überlappung)"
TOTAL_ON_GPU = "Summe {on_lower}: {total} von {capacity} nutzbar ({gpu})"
#: The memory typed as ``gpu_mem=``: named as the key, in GB converted to GiB.
GPU_MEM = "gpu_mem"
GPU_MEM_GB = "gpu_mem = {gigabytes} GB, umgerechnet"
USABLE_NOTE = "{gpu}: nutzbar {capacity} laut Treiber (Datenblatt {datasheet})."
#: After the sum, never among the GPU's lines: CPU memory is not part of it.
CPU = "Dazu im CPU-Speicher je Knoten (Offload, nicht in der Summe): {value}"
#: DeepSpeed's estimators print a CPU line without offloading too (the model built on the CPU), as effbatch does.
CPU_NO_OFFLOAD = (
    "Dazu im CPU-Speicher je Knoten (Schätzung von DeepSpeed für den Aufbau des Modells, ohne Offload; nicht in der "
    "Summe): {value}"
)
#: What offloading moved off the GPU: nothing of it left there, by design rather than by a slip.
IN_CPU = "0 (im CPU-Speicher)"
FITS = "Passt: Es bleiben {free} frei; der größte Micro-Batch, der passt, ist b = {largest}."
#: The largest micro-batch reached the bound b may have: counted no further.
FITS_AT_BOUND = (
    "Passt: Es bleiben {free} frei; selbst b = {largest} passt – mehr als diese Obergrenze für b rechne ich nicht."
)
FITS_NO_ACTIVATIONS = "Die Modellzustände passen: Es bleiben {free} für Aktivierungen."
DOES_NOT_FIT = "Passt nicht: Es fehlen {missing}."
LARGEST = " Der größte Micro-Batch, der passt, ist b = {largest}."
NONE_FITS = " Auch mit b = 1 passt es nicht."
NO_ACTIVATIONS_PARAMS = (
    "Ohne die Form des Modells fehlen die Aktivierungen in der Summe: Nenn ein Modell (`modell=llama3.1-8b`) oder "
    "`layers= hidden= heads= ffn= vocab=` und die Sequenzlänge `L=`."
)
NO_ACTIVATIONS_SEQ_LEN = "Ohne Sequenzlänge fehlen die Aktivierungen in der Summe – gib sie an, z. B. `L=4096`."
ADVICE_TITLE = "Was hilft"

RULES_NOTE: Mapping[str, str] = {
    "effbatch": (
        "Geschätzt nach den Regeln von effbatch: Modellzustände nach dem ZeRO-Paper (Rajbhandari et al. 2020: "
        "2 + 2 + 12 Byte je Parameter in gemischter Präzision), Aktivierungen nach Korthikanti et al. 2022, "
        "Tabelle 2, für die echte Form gezählt (GQA, FFN-Breite), erste Pipeline-Stufe. Ist `recompute=` nicht "
        "gesetzt, nehme ich FlashAttention an (rechnerisch wie selektive Neuberechnung). Mit "
        "`framework=megatron|deepspeed|fsdp|fsdp2|torchtitan|ddp|huggingface|lightning` zähle ich so, wie das "
        "Framework Zustände, Puffer, Aktivierungen und Logits hält. Attention: FlashAttention, außer "
        "`attention=eager`. Andere Regeln: `regeln=megatron`, `regeln=deepspeed`, "
        "`regeln=korthikanti`."
    ),
    "megatron": (
        "Nach der Schätzung in Megatron-LM (megatron/training/theoretical_memory_usage.py): 18 Byte je "
        "Parameter, mit verteiltem Optimierer 6 + 12/d; Vokabular auf ein Vielfaches von 128 · TP aufgefüllt."
    ),
    "deepspeed": (
        "Modellzustände nach estimate_zero2/3_model_states_mem_needs von DeepSpeed (20 Byte je Parameter auf einer "
        "GPU, ZeRO-3 mit 4 Byte je Parameter der größten Schicht, CPU × 1,5); die Aktivierungen schätzt DeepSpeed "
        "nicht, die rechne ich nach den Regeln von effbatch."
    ),
    "korthikanti": (
        "Aktivierungen nach Korthikanti et al. 2022, Tabelle 2, wie gedruckt (GPT-Form: MLP 4h, alle Köpfe für "
        "K und V); ist `recompute=` nicht gesetzt, rechne ich ohne Neuberechnung. Modellzustände nach dem ZeRO-Paper."
    ),
}
QUIRK_NOTES: Mapping[str, str] = {
    "params_only": (
        "Nur `params=`: Alle Parameter zählen gleich und sind gleichmäßig auf TP · PP verteilt; die Einbettung wird "
        "nicht gesondert ausgewiesen. Ohne die Form fehlen die Aktivierungen."
    ),
    "megatron_ignores_cp": "Die Schätzung von Megatron-LM kennt keine Kontext-Parallelität: CP ändert hier nichts.",
    "megatron_ignores_ulysses": "Die Schätzung von Megatron-LM kennt keine Ulysses-Sequenz-Parallelität (`sp=`).",
    "megatron_no_full_recompute": (
        "Die Schätzung von Megatron-LM kennt keine volle Neuberechnung und rechnet dann mit ihrer Formel ohne "
        "Sequenz-Parallelität."
    ),
    "megatron_without_sp_formula": (
        "Die Formel von Megatron-LM setzt Sequenz-Parallelität (`sequence_parallel=ja`) und selektive "
        "Neuberechnung zusammen voraus; hier fehlt eines davon, also rechnet sie je Schicht L · b · h · "
        "(10 + 24/TP) Byte plus 5 % (L Sequenzlänge, b Micro-Batch, h Breite)."
    ),
    "megatron_no_zero": (
        "Die Schätzung von Megatron-LM kennt nur den verteilten Optimierer (wie ZeRO-1), kein ZeRO-2/3."
    ),
    "megatron_no_offload": "Die Schätzung von Megatron-LM kennt keine Auslagerung auf die CPU.",
    "deepspeed_whole_model": (
        "Die Schätzung von DeepSpeed kennt keine Tensor- oder Pipeline-Parallelität: Jede GPU hält einen Anteil am "
        "ganzen Modell."
    ),
    "korthikanti_shape": "Tabelle 2 setzt die GPT-Form voraus; für GQA oder SwiGLU zählt `regeln=effbatch` genauer.",
    "context_split": (
        "CP/SP teilen die Sequenz: Aktivierungen für L / (CP · SP) Tokens je GPU; Puffer für die Kommunikation "
        "der Attention sind nicht gezählt – bei langem Kontext eine grobe Schätzung."
    ),
    "moe": (
        "MoE nur grob: Die Experten sind auf EP · TP GPUs verteilt; Aktivierungen zähle ich für die top-k Experten "
        "je Token, ohne Kapazitätsfaktor und ohne ungleiche Lastverteilung durch den Router."
    ),
    "largest_layer_unknown": (
        "ZeRO-3 sammelt je Schritt die größte Schicht ganz ein; ohne `largest_layer=` ist sie nicht gezählt."
    ),
}
#: ``ep=`` with a model without experts: said, since it changes nothing and likely names the wrong model.
EP_DENSE = "`ep=` gilt nur für MoE-Modelle; {model} hat keine Experten, `ep=` ändert hier nichts."
EP_DENSE_SHAPE = "diese Form"
CAPACITY_NOTE = (
    "Verglichen mit dem Speicher, den der Treiber einem Prozess lässt (weniger als laut Datenblatt, das in GB "
    "zählt); Reserve, CUDA-Kontext und NCCL sind angenommen. Eine Schätzung, keine Messung."
)
ESTIMATE_NOTE = "Eine Schätzung, keine Messung: Reserve, CUDA-Kontext und NCCL sind angenommen."

TIME_TITLE = "Trainingszeit"
FLOPS_PER_TOKEN_PARAMS = "FLOPs je Token = 6 · N = 6 × {params} = {flops}"
#: L is the sequence length and h the width everywhere in an answer; d stays the data-parallel replicas.
FLOPS_PER_TOKEN_SHAPE = "FLOPs je Token = 6 · N_matmul + 12 · Schichten · L · h = {flops}"
#: Attention narrower or wider than the model (heads · head size ≠ h): its width named as what it is.
FLOPS_PER_TOKEN_SHAPE_ATTENTION = "FLOPs je Token = 6 · N_matmul + 12 · Schichten · L · Köpfe · Kopfbreite = {flops}"
FLOPS_PER_TOKEN_KORTHIKANTI = "FLOPs je Token = 72 · Schichten · h² · (1 + L/6h + V/(16 · Schichten · h)) = {flops}"
FLOPS_PER_STEP = "FLOPs je Schritt = FLOPs je Token × T = {per_token} × {tokens} = {flops}"
STEP_TIME = "Zeit je Schritt = FLOPs / ({devices} · Peak · MFU) = {flops} / ({gpus} × {peak} × {mfu}) = {seconds}"
STEP_TIME_GIVEN = "MFU = FLOPs je Schritt / (Zeit · {devices} · Peak) = {flops} / ({seconds} × {gpus} × {peak}) = {mfu}"
THROUGHPUT_GIVEN = (
    "MFU = FLOPs je Token · Tokens/s / ({devices} · Peak) = {per_token} × {rate} / ({gpus} × {peak}) = {mfu}"
)
THROUGHPUT = "Durchsatz: {rate} Tokens/s, {tflops} TFLOP/s je {device}"
BUDGET_TIME = "Token-Budget {budget}: {duration} auf {gpus} {devices}, {hours} {device}-{hours_word} ({flops} FLOPs)"
#: „1 GPU-Stunde“, else „GPU-Stunden“.
HOURS_WORD = {True: "Stunde", False: "Stunden"}
#: A duration in the unit people think in: seconds, minutes and hours below a day, years from one on.
SECONDS = "{value}\u00a0s"
SECONDS_LONG = "{value}\u00a0s (≈ {minutes}\u00a0min)"
MINUTES = "≈ {value}\u00a0min"
HOURS = "≈ {value}\u00a0h"
DAYS = "{value} Tage"
ONE_DAY = "1 Tag"
YEARS = "≈ {value} Jahre"
ONE_YEAR = "≈ 1 Jahr"
MFU_ASSUMED = (
    "MFU {mfu} angenommen (Llama 3 405B: 38–43 %, PaLM 540B: 46,2 %); mit `mfu=`, `step_time=` oder "
    "`tokens_per_second=` rechne ich mit deinem Wert."
)
MFU_GIVEN = "MFU {mfu} wie angegeben (`mfu=`) statt vorhergesagt."
#: The predicted step: the sum, one bullet a part that costs anything, the MFU that follows, what was assumed.
STEP_PREDICTED = "Zeit je Schritt (vorhergesagt) = {parts} = {seconds}"
STEP_PART = "{part} {seconds}"
STEP_PART_LINE = "{part}: {seconds} ({share} des Schritts)"
STEP_PARTS: Mapping[str, str] = {
    "compute": "Rechnen",
    "recompute": "Neuberechnung",
    "data_parallel": "Datenparallel (Gradienten, ZeRO)",
    "tensor_parallel": "Tensor-Parallelität",
    "pipeline_bubble": "Pipeline-Blase",
    "context_parallel": "Kontext-Parallelität (Ring-Attention)",
    "expert_parallel": "Experten-Parallelität (All-to-All)",
    "moe_routing": "MoE-Routing (Permutation, Host-Sync)",
    "optimizer": "Optimiererschritt",
}
STEP_BOUND = "Am meisten kostet neben dem Rechnen: {part}."
MFU_PREDICTED = (
    "MFU = FLOPs je Schritt / (Zeit · {devices} · Peak) = {flops} / ({seconds} × {gpus} × {peak}) = {mfu} – "
    "ein Ergebnis, keine Annahme"
)
#: Each thing a prediction assumed, said where its number stands (by ``core.memory.step.Assumed`` value).
STEP_ASSUMED: Mapping[str, str] = {
    "kernel_efficiency": (
        "Angenommen: Die Matrixprodukte erreichen {matmul} des BF16-Peaks (die größte gemessene Leistung der Karte, "
        "die Formen dieser Schichten eingerechnet), FlashAttention-2 und speichergebundene Kernel ihre "
        "dokumentierten Anteile; mit `mfu=`, `step_time=` oder `tokens_per_second=` rechne ich mit deinem Wert."
    ),
    "network": (
        "Angenommen: {net} Gbit/s je {device} zwischen den Knoten, wie im Referenzknoten der {gpu}; "
        "mit `net=` rechne ich mit deinem Netz."
    ),
    "no_fp8": "Die {gpu} hat keine FP8-Einheiten: Die Matrixprodukte sind in BF16-Geschwindigkeit gerechnet.",
    "kernel_launch": (
        "Angenommen: Nach dem Routing jeder MoE-Schicht wartet die {device} auf den Host, der je lokalem Experten "
        "{kernels} Kernel startet, je {launch} µs (eine Schätzung aus NVIDIAs „few microseconds“ je Start, nicht "
        "gemessen)."
    ),
    "deepspeed_defaults": (
        "Angenommen: DeepSpeeds Voreinstellungen – unter ZeRO-1/2 kein `overlap_comm` (die Gradienten-Buckets werden "
        "per All-Reduce gemittelt, während das Rechnen wartet), unter ZeRO-3 `overlap_comm` und "
        "`stage3_max_reuse_distance` 1e9; setzt dein DeepSpeed-JSON anderes, braucht die Datenparallelität eine "
        "andere Zeit."
    ),
    "mfu": "MFU {mfu} angenommen.",
}
PEAK_SOURCE = "Peak: {peak} je {device} (BF16, dense, ohne Sparsity; Quelle: {source})."
PEAK_GIVEN = "Peak: {peak} je {device}, wie angegeben."

# --- the memory-only answer -------------------------------------------------------------------
MODEL_FIELD = "Modell"
SHAPE_FIELD = "Form"
SHAPE_VALUE = "{layers} Schichten, h = {hidden}, {heads} Köpfe"
PARAMS_FIELD = "Parameter"
#: The words for the accelerator: a TPU's devices are chips (as MaxText's own fields say), never GPUs.
DEVICE_WORDS: Mapping[bool, Mapping[str, str]] = {
    False: {
        "device": "GPU",
        "devices": "GPUs",
        "accelerator": "GPU",
        "counted": "GPUs gesamt",
        "on": "Auf der GPU",
        "on_lower": "auf der GPU",
        "context_name": "CUDA-Kontext und NCCL",
    },
    True: {
        "device": "Chip",
        "devices": "Chips",
        "accelerator": "Beschleuniger",
        "counted": "Chips gesamt",
        "on": "Auf dem Chip",
        "on_lower": "auf dem Chip",
        "context_name": "Laufzeit und Kommunikation",
    },
}
#: A field the question did not give: the value the estimate assumes, marked as such.
ASSUMED = "{value} (angenommen)"
#: ``missing`` is „b und a“ or „a“: the verb and pronoun agree with how many (``BATCH_HINT_VERB``).
BATCH_HINT = (
    "Für die effektive Batch-Größe {verb} noch {missing}; {with_them} rechne ich B und T dazu, z. B. "
    f"`{COMMAND} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100`."
)
BATCH_HINT_VERB = {1: ("fehlt", "damit"), 2: ("fehlen", "mit ihnen")}

# --- the config check -------------------------------------------------------------------------
CHECK_TITLE = "Speicher je {device} (Schätzung nach {rules}) – {what}"
CHECK_RULES: Mapping[str, str] = {
    "megatron": "den Regeln von Megatron-LM",
    "deepspeed": "den Regeln von DeepSpeed",
    "effbatch": "den Regeln von effbatch",
    "korthikanti": "Korthikanti et al. 2022",
}
CHECK_SHAPE = "{layers} Schichten, h = {hidden}, {heads} Köpfe"
CHECK_LIKE = "{shape} (Form von {like})"
CHECK_FROM = "Modell aus {where}; {parallel}, {precision}."
CHECK_PARALLEL = "TP · PP · CP · SP = {degrees}{ep}{zero}"
CHECK_EP = ", EP = {ep}"
CHECK_ZERO = ", ZeRO-Stufe {zero}"
CHECK_DISTRIBUTED = ", verteilter Optimierer"
CHECK_OFFLOAD = ", Optimiererzustände im CPU-Speicher"
CHECK_OFFLOAD_PARAMS = ", Gewichte und Optimiererzustände im CPU-Speicher"
CHECK_PRECISION: Mapping[str, str] = {
    "bf16": "gemischte Präzision (BF16)",
    "fp16": "gemischte Präzision (FP16)",
    "fp32": "FP32",
}
CHECK_VOCAB_TABLE = (
    "Den Tokenizer nennt die Konfiguration nicht: Vokabular {vocab} wie bei {like}, das dieselbe Form hat."
)
CHECK_VOCAB_UNKNOWN = (
    "Den Tokenizer nennt die Konfiguration nicht: Einbettung und Ausgabeschicht sind nicht gezählt, der Speicher "
    "je GPU ist also etwas höher."
)
CHECK_NO_SEQ_LEN = "Aktivierungen rechne ich mit der Sequenzlänge; diese Konfiguration nennt keine."
CHECK_GPU_CONFIG = "Die Konfiguration nennt die GPU: {gpu}."
CHECK_NO_GPU = "Ob es passt, sage ich, wenn du die GPU nennst: {how}."
CHECK_NO_CHIP = "Ob es passt, sage ich, wenn du den Beschleuniger nennst: {how}."
#: ``example``: h100, or tpu-v5e for a framework that runs on TPUs.
CHECK_GPU_HOW_CLI = "`--gpu {example}` (bekannt: {gpus})"
CHECK_GPU_HOW_SLACK = "`{command} prüfe gpu={example}` und darunter die Konfiguration (bekannt: {gpus})"
CHECK_EXAMPLE = {False: "h100", True: "tpu-v5e"}
CHECK_RULES_NOTE: Mapping[str, str] = {
    "megatron": (
        "Nach der Schätzung in Megatron-LM (megatron/training/theoretical_memory_usage.py), wie für Megatron-LM, "
        "NeMo und Megatron-Bridge: 18 Byte je Parameter, mit verteiltem Optimierer 6 + 12/d; Aktivierungen der "
        "ersten Pipeline-Stufe."
    ),
    "deepspeed": (
        "Gewichte, Gradienten und Optimiererzustände nach estimate_zero2/3_model_states_mem_needs von DeepSpeed, "
        "der Schätzung für die ZeRO-Stufe der Konfiguration; die Aktivierungen schätzt DeepSpeed nicht, die rechne "
        "ich nach den Regeln von effbatch."
    ),
    "effbatch": (
        "Nach den Regeln von effbatch: Gewichte, Gradienten und Optimiererzustände so, wie das erkannte Framework "
        "sie hält (sonst nach dem ZeRO-Paper, 2 + 2 + 12 Byte je Parameter), Aktivierungen für die echte Form mit "
        "FlashAttention."
    ),
}
#: Only where the config says nothing about recomputation.
CHECK_FLASH_ASSUMED = "Zur Neuberechnung sagt die Konfiguration nichts: Ich nehme FlashAttention an."
#: What an estimate leaves out of one framework's set-up (``MemoryFacts.caveat``).
CHECK_CAVEATS: Mapping[str, str] = {
    "partial_recompute": (
        "Die Konfiguration rechnet nur einen Teil der Aktivierungen neu (etwa einzelne Module oder Schichten); "
        "gezählt ist volle Neuberechnung, die Aktivierungen sind also eher zu niedrig geschätzt."
    ),
}
#: Quirks worded for a check (the config's own settings, not the calculator's keys); the rest as the calculator's.
CHECK_QUIRK_NOTES: Mapping[str, str] = {
    "megatron_without_sp_formula": (
        "Die Formel von Megatron-LM setzt Sequenz-Parallelität und selektive Neuberechnung zusammen voraus; hier "
        "fehlt eines davon, also rechnet sie je Schicht L · b · h · (10 + 24/TP) Byte plus 5 % (L Sequenzlänge, "
        "b Micro-Batch, h Breite)."
    ),
    "megatron_ignores_ulysses": "Die Schätzung von Megatron-LM kennt keine Ulysses-Sequenz-Parallelität.",
    "largest_layer_unknown": "ZeRO-3 sammelt je Schritt die größte Schicht ganz ein; sie ist nicht gezählt.",
}

# --- help ---------------------------------------------------------------------------------------
HELP_TOPIC = (
    "Ich schätze den Speicher je GPU: Gewichte, Gradienten, Optimiererzustände und Aktivierungen der ersten "
    "Pipeline-Stufe – und was auf der GPU frei bleibt. Eine Speicherfrage braucht kein b, d, a: "
    "`{command} params=7B zero=3 gpus=8`.",
    "Das Modell: ein Name ({models}), oder seine Form `layers= hidden= heads= kv_heads= ffn= vocab= swiglu=ja|nein "
    "tied=ja|nein experts= topk= moe_ffn=`, oder nur `params=` (dann ohne Aktivierungen).",
    "Die GPU: `gpu=` {gpus}, oder `gpu_mem=80GiB`. Dazu `dtype=bf16|fp16|fp32|fp8|bf16-true` (reines BF16), "
    "`zero=0|1|2|3` (FSDP = 3), "
    "`framework=megatron|deepspeed|fsdp|fsdp2|torchtitan|ddp|huggingface|lightning` (wer die Zustände hält), "
    "`attention=flash|triton|eager` (sdpa = flash), `head_dim=`, "
    "`distributed_optimizer=ja`, `offload=none|optimizer|params`, `recompute=none|selective|full`, "
    "`sequence_parallel=ja` (die Sequenz-Parallelität von Megatron-LM; `sp=` ist DeepSpeed-Ulysses), "
    "`tp pp cp ep vpp`, `largest_layer=`, "
    "`zero_init=ja|nein`, `nodes=`; alle weiteren: `{command} hilfe schlüssel`.",
    "Zeit: Mit der GPU sage ich die Zeit je Schritt vorher – Rechnen, Kommunikation, Pipeline-Blase, Optimierer – "
    "und daraus die MFU; `net=400` (Gbit/s je GPU zwischen den Knoten), `dtype=fp8`, `framework=`; mit `budget=` "
    "die Dauer und GPU-Stunden. `mfu=` ersetzt die Vorhersage, `peak=` den Peak (Spitzenleistung je GPU, BF16, "
    "dense; dann 40 % MFU angenommen); "
    "umgekehrt `step_time=13,75s` oder `tokens_per_second=` → MFU.",
    "Skalierung: `skalierung` am Ende zeigt Schrittzeit, Tokens/s und Effizienz für d = 1, 2, 4, … und wo mehr GPUs "
    "nicht mehr lohnen (in Slack als Diagramm). Planen: `{command} plane MODELL gpus= gpu= B= L=` sucht TP, PP, CP, "
    "ZeRO, Neuberechnung, b und a mit B gleich und nennt die drei schnellsten Aufteilungen, die passen.",
    "Regeln: ohne Angabe die von effbatch (ZeRO-Paper und Korthikanti et al. 2022, Tabelle 2, für die echte "
    "Form); `regeln=megatron` wie theoretical_memory_usage.py in Megatron-LM, `regeln=deepspeed` wie "
    "estimate_zero2/3_model_states_mem_needs in DeepSpeed, `regeln=korthikanti` Tabelle 2 wie gedruckt.",
)
HELP_TOPIC_EXAMPLE = "`{command} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 zero=1 budget=1T`"
