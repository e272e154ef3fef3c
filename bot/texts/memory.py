"""What the memory and time sections say (issue 28): Speicher je GPU, Trainingszeit, what to change.

Templates take formatted numbers; ``bot.rendering.memory`` fills them in. Glossary: Gewichte,
Gradienten, Optimiererzustände, Aktivierungen, Speicher je GPU.
"""

from __future__ import annotations

from collections.abc import Mapping

from effbatch.bot.texts.glossary import COMMAND

MEMORY_TITLE = "Speicher je GPU – {what}"
MEMORY_SUMMARY = "Speicher je GPU: {total} ({what})"
MEMORY_DOCUMENT_TITLE = "Speicher je GPU: {total}"
PARAMS_WHAT = "{params} Parameter"
WEIGHTS = "Gewichte: {value}"
GRADIENTS = "Gradienten: {value}"
OPTIMIZER = "Optimiererzustände: {value}"
GATHER = "Gesammelte größte Schicht (ZeRO-3): {value}"
ACTIVATIONS = "Aktivierungen: {value}"
#: How the model states came about: bytes a parameter and what ZeRO splits.
STATES_FORMULA = "{params} Parameter je GPU × {bytes} Byte{split}"
STATES_SPLIT = ", ZeRO {zero} teilt {what} durch {group}"
ZERO_SPLITS = {1: "die Optimiererzustände", 2: "Optimiererzustände und Gradienten", 3: "alles"}
ACTIVATIONS_FORMULA = "{layers} Schichten × {per_layer} × {in_flight} Micro-Batch(es) in der ersten Stufe"
ACTIVATIONS_DETAIL = "(b = {micro}, L = {seq_len}, {recompute})"
ACTIVATIONS_KERNEL_DETAIL = "(b = {micro}, L = {seq_len}, {recompute}, {attention})"
RECOMPUTE_NAMES = {
    "none": "ohne Neuberechnung",
    "selective": "selektive Neuberechnung",
    "full": "volle Neuberechnung",
}
ATTENTION_NAMES = {
    "flash": "FlashAttention",
    "eager": "Eager-Attention (speichert die s × s-Scores)",
}
LOGITS = "davon Logits und Loss: {value}"
BUFFERS = "Puffer von {framework}: {value}"
FRAMEWORK_NAMES: Mapping[str, str] = {
    "megatron": "Megatron-LM",
    "deepspeed": "DeepSpeed",
    "fsdp": "PyTorch FSDP",
    "fsdp2": "PyTorch FSDP2",
    "torchtitan": "torchtitan",
    "ddp": "PyTorch DDP",
    "huggingface": "Hugging Faces Trainer",
}
#: How each framework holds its states, as its source code allocates them (core/memory/holders/).
FRAMEWORK_STATES: Mapping[str, str] = {
    "megatron": (
        "BF16-Gewichte 2, FP32-Gradienten 4, FP32-Master und Adam 12 Byte je Parameter, mit verteiltem Optimierer "
        "÷ d (ohne `distributed_optimizer=` angenommen, wie in NeMos und Megatron-Bridges Rezepten); Loss "
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
        "FP32-Gewichte 4, Gradienten 4 und DDPs Gradienten-Buckets 4, Adam 8 Byte je Parameter; Autocasts "
        "BF16-Kopien der Gewichte bleiben bis zum Backward."
    ),
    "huggingface": (
        "ohne ZeRO wie DDP (FP32-Gewichte 4, Gradienten 4, Buckets 4, Adam 8 Byte je Parameter, Autocasts "
        "BF16-Kopien); mit `zero=2|3` FSDP über Accelerate, das bei Akkumulation ohne Sync die Gradienten ganz hält."
    ),
}
FRAMEWORK_LINE = "Gehalten wie von {framework}: {states}"
TOTAL = "Summe: {total}"
#: The allocated peak and what PyTorch's counters miss, each assumed number said where it stands.
ON_DEVICE = (
    "Auf der GPU = belegt {total} + Reserve des Allokators {reserve} (angenommen {share}) + CUDA-Kontext und "
    "NCCL {context} (angenommen {base} + {per_group} je Kommunikator × {groups}) = {device}"
)
TOTAL_ON_GPU = "Summe auf der GPU: {total} von {capacity} nutzbar ({gpu})"
USABLE_NOTE = "{gpu}: nutzbar {capacity} laut Treiber (Datenblatt {datasheet})."
CPU = "CPU-Speicher je Knoten (Offload): {value}"
#: DeepSpeed's estimators print a CPU line without offloading too (the model built on the CPU), as effbatch does.
CPU_NO_OFFLOAD = "CPU-Speicher je Knoten (DeepSpeeds Schätzung, ohne Offload): {value}"
FITS = "Passt: Es bleiben {free} frei; der größte Micro-Batch, der passt, ist b = {largest}."
#: The largest micro-batch reached the bound b may have: counted no further.
FITS_AT_BOUND = (
    "Passt: Es bleiben {free} frei; selbst b = {largest} passt – mehr als diese Obergrenze für b rechne ich nicht."
)
FITS_NO_ACTIVATIONS = "Die Modellzustände passen: Es bleiben {free} für Aktivierungen."
DOES_NOT_FIT = "Passt nicht: Es fehlen {missing}."
LARGEST = " Der größte Micro-Batch, der passt, ist b = {largest}."
NONE_FITS = " Schon b = 1 passt nicht."
NO_ACTIVATIONS_PARAMS = (
    "Aktivierungen rechne ich nur mit der Form des Modells: Nenn ein Modell (`modell=llama3.1-8b`) oder "
    "`layers= hidden= heads= ffn= vocab=` und die Sequenzlänge `L=`."
)
NO_ACTIVATIONS_SEQ_LEN = "Aktivierungen rechne ich mit der Sequenzlänge: `L=4096`."
ACCUMULATION_NOTE = (
    "Akkumulation kostet keinen Aktivierungsspeicher: Die a Durchläufe laufen nacheinander. Mit kleinerem b und "
    "größerem a bleibt B gleich."
)
ADVICE_TITLE = "Was hilft"
ADVICE_FITS = "passt"
ADVICE_FITS_LARGEST = "passt bis b = {largest}"
ADVICE_FITS_AT_BOUND = "passt selbst mit b = {largest}, der Obergrenze für b"
ADVICE_NOT_ENOUGH = "reicht allein nicht"
ADVICE_LINE = "`{change}` – {what}: {total}, {verdict}"
ADVICE_WHAT: Mapping[str, str] = {
    "accumulation": "kleinerer Micro-Batch, dafür mehr Akkumulation (B bleibt)",
    "recompute_selective": "selektive Neuberechnung (Attention neu rechnen)",
    "sequence_parallel": "Megatrons Sequenz-Parallelität (teilt auch LayerNorm und Dropout durch TP)",
    "zero": "nächste ZeRO-Stufe",
    "tp": "mehr Tensor-Parallelität",
    "recompute_full": "volle Neuberechnung (nur die Eingabe jeder Schicht bleibt)",
    "offload": "Optimiererzustände in den CPU-Speicher",
}
ADVICE_ACCUMULATION = "b={micro} a={accumulation}"
ADVICE_ACCUMULATION_NO_A = "b={micro}"

RULES_NOTE: Mapping[str, str] = {
    "effbatch": (
        "Geschätzt nach effbatchs Regeln: Modellzustände nach dem ZeRO-Paper (Rajbhandari et al. 2020: 2 + 2 + 12 "
        "Byte je Parameter in gemischter Präzision), Aktivierungen nach Korthikanti et al. 2022, Tabelle 2, für die "
        "echte Form gezählt (GQA, FFN-Breite), erste Pipeline-Stufe. Mit `framework=megatron|deepspeed|fsdp|fsdp2|"
        "torchtitan|ddp|huggingface` zähle ich so, wie das Framework Zustände, Puffer, Aktivierungen und Logits hält. "
        "Attention: FlashAttention, außer `attention=eager`. Andere Regeln: `regeln=megatron`, `regeln=deepspeed`, "
        "`regeln=korthikanti`."
    ),
    "megatron": (
        "Nach Megatron-LMs eigener Schätzung (megatron/training/theoretical_memory_usage.py): 18 Byte je "
        "Parameter, mit verteiltem Optimierer 6 + 12/d; Vokabular auf ein Vielfaches von 128 · TP aufgefüllt."
    ),
    "deepspeed": (
        "Modellzustände nach DeepSpeeds estimate_zero2/3_model_states_mem_needs (20 Byte je Parameter auf einer "
        "GPU, ZeRO-3 mit 4 Byte je Parameter der größten Schicht, CPU × 1,5); die Aktivierungen rechnet DeepSpeed "
        "nicht – sie sind nach effbatchs Regeln."
    ),
    "korthikanti": (
        "Aktivierungen nach Korthikanti et al. 2022, Tabelle 2, wie gedruckt (GPT-Form: MLP 4h, alle Köpfe für "
        "K und V), ohne `recompute=` ohne Neuberechnung; Modellzustände nach dem ZeRO-Paper."
    ),
}
QUIRK_NOTES: Mapping[str, str] = {
    "params_only": "Nur `params=`: Gewichte, Gradienten und Optimiererzustände ohne Einbettung getrennt gezählt.",
    "megatron_ignores_cp": "Megatrons Schätzung kennt keine Kontext-Parallelität: CP ändert hier nichts.",
    "megatron_ignores_ulysses": "Megatrons Schätzung kennt keine Ulysses-Sequenz-Parallelität (`sp=`).",
    "megatron_no_full_recompute": (
        "Megatrons Schätzung kennt keine volle Neuberechnung und rechnet dann mit ihrer Formel ohne SP."
    ),
    "megatron_without_sp_formula": (
        "Ohne `sequence_parallel=ja` und selektive Neuberechnung nimmt Megatron sbh (10 + 24/t) je Schicht "
        "und 5 % Aufschlag."
    ),
    "megatron_no_zero": "Megatrons Schätzung kennt nur den verteilten Optimierer (wie ZeRO-1), kein ZeRO-2/3.",
    "megatron_no_offload": "Megatrons Schätzung kennt keine Auslagerung auf die CPU.",
    "deepspeed_whole_model": (
        "DeepSpeeds Schätzung kennt keine Tensor- oder Pipeline-Parallelität: Jede GPU hält einen Anteil am "
        "ganzen Modell."
    ),
    "korthikanti_shape": "Tabelle 2 setzt die GPT-Form voraus; für GQA oder SwiGLU zählt `regeln=effbatch` genauer.",
    "context_split": (
        "CP/SP teilen die Sequenz: Aktivierungen für L / (CP · SP) Tokens je GPU; Puffer für die Kommunikation "
        "der Attention sind nicht gezählt – bei langem Kontext eine grobe Schätzung."
    ),
    "moe": (
        "MoE grob: Experten auf EP · TP GPUs verteilt, Aktivierungen für die top-k Experten je Token ohne "
        "Kapazitätsfaktor und Ungleichgewicht der Router."
    ),
    "largest_layer_unknown": (
        "ZeRO-3 sammelt je Schritt die größte Schicht ganz ein; ohne `largest_layer=` ist sie nicht gezählt."
    ),
}
CAPACITY_NOTE = (
    "Gegen den Speicher gehalten, den der Treiber einem Prozess gibt (unter dem Datenblatt); Reserve, CUDA-Kontext "
    "und NCCL sind angenommen. Eine Schätzung, keine Messung."
)
ESTIMATE_NOTE = "Eine Schätzung, keine Messung: Reserve, CUDA-Kontext und NCCL sind angenommen."

TIME_TITLE = "Trainingszeit"
FLOPS_PER_TOKEN_PARAMS = "FLOPs je Token = 6 · N = 6 × {params} = {flops}"
FLOPS_PER_TOKEN_SHAPE = "FLOPs je Token = 6 · N_matmul + 12 · L_Schichten · s · d = {flops}"
FLOPS_PER_TOKEN_KORTHIKANTI = "FLOPs je Token = 72 · l · h² · (1 + s/6h + V/16lh) = {flops}"
FLOPS_PER_STEP = "FLOPs je Schritt = FLOPs je Token × T = {per_token} × {tokens} = {flops}"
STEP_TIME = "Zeit je Schritt = FLOPs / (GPUs · Spitze · MFU) = {flops} / ({gpus} × {peak} × {mfu}) = {seconds}"
STEP_TIME_GIVEN = "MFU = FLOPs je Schritt / (Zeit · GPUs · Spitze) = {flops} / ({seconds} × {gpus} × {peak}) = {mfu}"
THROUGHPUT_GIVEN = (
    "MFU = FLOPs je Token · Tokens/s / (GPUs · Spitze) = {per_token} × {rate} / ({gpus} × {peak}) = {mfu}"
)
THROUGHPUT = "Durchsatz: {rate} Tokens/s, {tflops} TFLOP/s je GPU"
BUDGET_TIME = "Token-Budget {budget}: {days} Tage auf {gpus} GPUs, {hours} GPU-Stunden ({flops} FLOPs)"
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
    "optimizer": "Optimiererschritt",
}
STEP_BOUND = "Am meisten kostet neben dem Rechnen: {part}."
MFU_PREDICTED = (
    "MFU = FLOPs je Schritt / (Zeit · GPUs · Spitze) = {flops} / ({seconds} × {gpus} × {peak}) = {mfu} – "
    "ein Ergebnis, keine Annahme"
)
#: Each thing a prediction assumed, said where its number stands (by ``core.memory.step.Assumed`` value).
STEP_ASSUMED: Mapping[str, str] = {
    "kernel_efficiency": (
        "Angenommen: Die Matrixprodukte erreichen {matmul} der BF16-Spitze (die größte gemessene Leistung der Karte, "
        "die Formen dieser Schichten eingerechnet), FlashAttention-2 und speichergebundene Kernel ihre "
        "dokumentierten Anteile; mit `mfu=`, `step_time=` oder `tokens_per_second=` rechne ich mit deinem Wert."
    ),
    "network": (
        "Angenommen: {net} Gbit/s je GPU zwischen den Knoten, wie im Referenzknoten der {gpu}; "
        "mit `net=` rechne ich mit deinem Netz."
    ),
    "no_fp8": "Die {gpu} hat keine FP8-Einheiten: Die Matrixprodukte sind in BF16-Geschwindigkeit gerechnet.",
    "mfu": "MFU {mfu} angenommen.",
}
PEAK_SOURCE = "Spitze: {peak} dicht in BF16 ({source})."
PEAK_GIVEN = "Spitze: {peak} wie angegeben."
DAYS = "{value}"

# --- the memory-only answer -------------------------------------------------------------------
MODEL_FIELD = "Modell"
SHAPE_FIELD = "Form"
SHAPE_VALUE = "{layers} Schichten, h = {hidden}, {heads} Köpfe"
PARAMS_FIELD = "Parameter"
GPU_FIELD = "GPU"
MICRO_FIELD = "Micro-Batch (b)"
BATCH_HINT = (
    "Für die effektive Batch-Größe fehlen noch {missing}; mit ihnen rechne ich B und T dazu, z. B. "
    f"`{COMMAND} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100`."
)

# --- the config check (issue 28, item 5) --------------------------------------------------------
CHECK_TITLE = "Speicher je GPU (Schätzung nach {rules}) – {what}"
CHECK_RULES: Mapping[str, str] = {
    "megatron": "Megatron-LMs Regeln",
    "deepspeed": "DeepSpeeds Regeln",
    "effbatch": "effbatchs Regeln",
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
#: DeepSpeed's ZeRO-3 estimator names CPU memory without offloading too (the model built on the CPU, zero_init).
CHECK_CPU_NO_OFFLOAD = "CPU-Speicher je Knoten (DeepSpeeds Schätzung, ohne Offload): {value}"
CHECK_NO_SEQ_LEN = "Aktivierungen rechne ich mit der Sequenzlänge; diese Konfiguration nennt keine."
CHECK_GPU_CONFIG = "Die Konfiguration nennt die GPU: {gpu}."
CHECK_NO_GPU = "Ob es passt, sage ich mit einer GPU: {how}."
CHECK_GPU_HOW_CLI = "`--gpu h100` (bekannt: {gpus})"
CHECK_GPU_HOW_SLACK = "`{command} prüfe gpu=h100` und darunter die Konfiguration (bekannt: {gpus})"
CHECK_RULES_NOTE: Mapping[str, str] = {
    "megatron": (
        "Nach Megatron-LMs eigener Schätzung (megatron/training/theoretical_memory_usage.py), wie für Megatron-LM, "
        "NeMo und Megatron-Bridge: 18 Byte je Parameter, mit verteiltem Optimierer 6 + 12/d; Aktivierungen der "
        "ersten Pipeline-Stufe."
    ),
    "deepspeed": (
        "Gewichte, Gradienten und Optimiererzustände nach DeepSpeeds estimate_zero2/3_model_states_mem_needs, wie "
        "für eine ZeRO-Konfiguration; Aktivierungen rechnet DeepSpeed nicht – sie sind nach effbatchs Regeln."
    ),
    "effbatch": (
        "Nach effbatchs Regeln: Gewichte, Gradienten und Optimiererzustände so, wie das erkannte Framework sie hält "
        "(sonst nach dem ZeRO-Paper, 2 + 2 + 12 Byte je Parameter), Aktivierungen für die echte Form mit "
        "FlashAttention."
    ),
}
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
        "Ohne Megatrons Sequenz-Parallelität mit selektiver Neuberechnung nimmt seine Schätzung sbh (10 + 24/t) je "
        "Schicht und 5 % Aufschlag."
    ),
    "megatron_ignores_ulysses": "Megatrons Schätzung kennt keine Ulysses-Sequenz-Parallelität.",
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
    "`framework=megatron|deepspeed|fsdp|fsdp2|torchtitan|ddp|huggingface` (wer die Zustände hält), "
    "`attention=flash|eager` (sdpa = flash), `head_dim=`, "
    "`distributed_optimizer=ja`, `offload=none|optimizer|params`, `recompute=none|selective|full`, "
    "`sequence_parallel=ja` (Megatrons; `sp=` bleibt Ulysses), `tp pp cp ep vpp`, `largest_layer=`, "
    "`zero_init=ja|nein`, `nodes=`.",
    "Zeit: Mit der GPU sage ich die Zeit je Schritt vorher – Rechnen, Kommunikation, Pipeline-Blase, Optimierer – "
    "und daraus die MFU; `net=400` (Gbit/s je GPU zwischen den Knoten), `dtype=fp8`, `framework=`; mit `budget=` "
    "die Tage und GPU-Stunden. `mfu=` ersetzt die Vorhersage, `peak=` die Spitze (dann 40 % MFU angenommen); "
    "umgekehrt `step_time=13,75s` oder `tokens_per_second=` → MFU.",
    "Regeln: ohne Angabe effbatchs (ZeRO-Paper und Korthikanti et al. 2022, Tabelle 2, für die echte Form); "
    "`regeln=megatron` wie Megatron-LMs theoretical_memory_usage.py, `regeln=deepspeed` wie DeepSpeeds "
    "estimate_zero2/3_model_states_mem_needs, `regeln=korthikanti` Tabelle 2 wie gedruckt.",
)
HELP_TOPIC_EXAMPLE = "`{command} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 zero=1 budget=1T`"
