"""``effbatch check``'s memory per GPU, held against each framework's own estimator.

Every number was got by running the framework's own code outside this repository (throwaway venvs: torch 2.13 CPU,
GPU-only imports stubbed) on the same configs; the configs are verbatim copies (``tests/data/configs/memory/README.md``
names each repository and commit) or the existing fixtures.

- Megatron-LM, NeMo, Megatron-Bridge (convention ``megatron``): Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553.
  Launch scripts: its ``parse_args`` + ``validate_args`` on the very argv each script passes (captured with the
  launchers shimmed), the vocabulary padded by ``megatron/core/tokenizers/utils/build_tokenizer.py:133``, the
  micro-batches from ``num_microbatches_calculator.py``, then ``megatron/training/theoretical_memory_usage.py``
  ``report_theoretical_memory(args, a)``: ``compute_weight_and_optimizer_memory`` (our model states) and
  ``compute_activation_memory`` / ``compute_activation_memory_without_sp`` (our activations). Megatron-LLaMA's own
  flags were given to it as main's (``--RMSNorm`` → ``--normalization RMSNorm``, ``--overlapped-distributed-optimizer``
  → ``--use-distributed-optimizer``, ``PretrainedFromHF`` → ``Llama2Tokenizer``), as effbatch reads them. NeMo 1's
  YAML and the Bridge/NeMo 2 recipes: the args they hand Megatron-Core, through the same file.
- Hugging Face Trainer with a DeepSpeed config (``deepspeed``): DeepSpeed 0.19.8 (transformers 5.25), the model built
  from its config.json on the meta device, ``stage3.py:4055 model_to_params`` and
  ``estimate_zero2/3_model_states_mem_needs``.
- torchtitan, MaxText, OLMo-core (``effbatch``, the ZeRO paper's 16 bytes a parameter): the parameter counts from
  torchtitan@238fa995's own ``Transformer`` on the meta device and OLMo-core@fa6c5014's
  ``TransformerConfig.num_params``;
  MaxText's model YAML is the table's shape. MaxText has no estimator to run (XLA's needs a TPU).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from effbatch.bot.check_runner import CheckPool
from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer, check_json, finding_text
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.check_command import check_request
from effbatch.core.configs import CheckError, ProblemKind, Source, World, check_config
from effbatch.core.memory import ModelSpec

DATA = Path(__file__).parent / "data"
MEMORY = DATA / "configs" / "memory"
CORPUS = DATA / "corpus"
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
#: Llama 2 7B's shape as Megatron-LM's flags (huggingface.co/meta-llama/Llama-2-7b-hf/config.json), TP 8 with
#: sequence parallelism and selective recomputation: Megatron's formula "with SP".
LLAMA2_TP8 = (
    "torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
    "--ffn-hidden-size 11008 --swiglu --vocab-size 32000 --untie-embeddings-and-output-weights --normalization RMSNorm "
    "--disable-bias-linear --seq-length 4096 --max-position-embeddings 4096 --tensor-model-parallel-size 8 "
    "--sequence-parallel --recompute-activations --bf16 --micro-batch-size 64 --global-batch-size 512 "
    "--tokenizer-type NullTokenizer"
)


def _sources(*paths: Path) -> list[Source]:
    return [Source(path.name, path.read_text()) for path in paths]


@pytest.mark.parametrize(
    ("sources", "world", "states", "activations"),
    [
        # NVIDIA's Llama 3 8B example: 8 GPUs, b 1, L 8.192, a 16, distributed optimizer, --sequence-parallel at TP 1
        # (disabled), no recomputation; vocabulary 128.256 (NullTokenizer). Megatron: 60226959360, 40644762009,6.
        ([MEMORY / "megatron_llama3_8b_h100_fp8.sh"], None, 60_226_959_360, 40_644_762_010),
        # NVIDIA's Mixtral 8x7B example at 64 GPUs: PP 4, EP 8, a 16, Llama2Tokenizer (32.000), distributed optimizer.
        # Megatron: 20063312640, 19236893491,2.
        ([MEMORY / "megatron_mixtral_8x7b.sh"], 64, 20_063_312_640, 19_236_893_491),
        # Megatron-LLaMA's Llama 2 7B (alibaba/Megatron-LLaMA@25306de8, corpus): d 8, b 4, L 4.096, a 8, tied.
        # Megatron: 49555077120, 77977701580,8.
        (
            [CORPUS / "megatron" / "mllama2-7b-standalone" / "LLaMA2_7B_standalone.sh"],
            None,
            49_555_077_120,
            77_977_701_581,
        ),
        # Its 13B: TP 2 with sequence parallelism and selective recomputation, b 2, L 2.048, a 8.
        # Megatron: 57835975680, 12394184704.
        (
            [CORPUS / "megatron" / "mllama-13b-standalone" / "LLaMA_13_standalone.sh"],
            None,
            57_835_975_680,
            12_394_184_704,
        ),
        # Llama 2 7B at TP 8 with SP and selective recomputation, b 64 (vocabulary padded to 32.768).
        # Megatron: 15179784192, 128446627840.
        ([("run.sh", LLAMA2_TP8)], 16, 15_179_784_192, 128_446_627_840),
        # NeMo 1's Llama config (1 GPU, b 4, a 2, L 4.096, untied, sentencepiece: Llama 2's 32.000 by the shape) and
        # its GPT config (GPT2BPETokenizer 50.257, padded to 50.304): the YAML as the Megatron args NeMo hands over,
        # through Megatron's theoretical_memory_usage.py.
        # Megatron: 121291481088, 77977701580,8; 2224917504, 895134105,6.
        ([MEMORY / "nemo_megatron_llama_config.yaml"], None, 121_291_481_088, 77_977_701_581),
        ([MEMORY / "nemo_megatron_gpt_config.yaml"], None, 2_224_917_504, 895_134_106),
        # Megatron-Bridge's Llama 3 8B recipe (the shape of recipes/llama/h100/llama3.py: 2 GPUs from its name, CP 2,
        # b 1, a 512, L 8.192, _pretrain_common's distributed optimizer) and NeMo 2's llama3_8b.py (8 GPUs, CP 2,
        # a 128, distributed_fused_adam): Meta-Llama-3-8B's config.json as Megatron args, Megatron ignoring CP.
        # Megatron: 144544702464, 40644762009,6; 72272351232, 40644762009,6.
        ([DATA / "configs" / "megatron_bridge" / "01_plain_pretrain.py"], None, 144_544_702_464, 40_644_762_010),
        ([MEMORY / "nemo2_llama3_8b.py"], None, 72_272_351_232, 40_644_762_010),
    ],
)
def test_megatron_configs_agree_with_megatrons_own_estimate(
    sources: list[Path | tuple[str, str]], world: int | None, states: int, activations: int
) -> None:
    """What `effbatch check --json` says of a Megatron launch is what Megatron-LM's theoretical_memory_usage.py
    reports for the same arguments, to the byte."""
    given = [Source(*s) if isinstance(s, tuple) else Source(s.name, s.read_text()) for s in sources]
    check = check_config(given, World(world, "gpus") if world else None, gpu="h100")
    memory = check_json(check)["memory"]
    assert memory["rules"] == "megatron"
    assert memory["model_states_bytes_per_gpu"] == states
    assert memory["activations_bytes"] == activations
    jsonschema.validate(check_json(check), SCHEMA)


def test_megatrons_expert_tensor_parallelism_is_read() -> None:
    """``--expert-tensor-parallel-size`` splits the experts apart from TP, as theoretical_memory_usage.py line 259
    divides them (ETP · EP): NVIDIA's Mixtral 8x7B example at TP 2 with ETP 1 holds twice the experts' share of ETP 2,
    32 layers × 8 experts × 3 × 4.096 × 14.336 routed parameters over PP 4 and EP 8."""
    script = (MEMORY / "megatron_mixtral_8x7b.sh").read_text()
    at_tp2 = script.replace("--tensor-model-parallel-size 1", "--tensor-model-parallel-size 2 --sequence-parallel")
    shares = []
    for etp in (1, 2):
        given = [
            Source(
                "run.sh",
                at_tp2.replace(
                    "--expert-model-parallel-size 8",
                    f"--expert-model-parallel-size 8 --expert-tensor-parallel-size {etp}",
                ),
            )
        ]
        shares.append(check_json(check_config(given, World(64, "gpus"), gpu="h100"))["memory"]["params_per_gpu"])
    routed = 32 * 8 * 3 * 4096 * 14336 / 4
    assert shares[0] - shares[1] == pytest.approx(routed / 8 - routed / 16, abs=2)


@pytest.mark.parametrize(
    ("ds_config", "states", "cpu"),
    [
        # DeepSpeed 0.19.8 (transformers 5.25, torch 2.13 CPU), run outside this repository: Meta-Llama-3-8B-Instruct
        # built from its config.json on the meta device, ``deepspeed/runtime/zero/stage3.py:4055 model_to_params``
        # (8.030.261.248 parameters, largest layer 525.336.576), then ``estimate_zero3_model_states_mem_needs`` /
        # ``stage_1_and_2.py estimate_zero2_model_states_mem_needs`` for 8 GPUs on one node: their GPU and CPU bytes.
        ("llamafactory_ds_z3_config.json", 20_169_434_112, 25_216_155_648),
        ("llamafactory_ds_z3_offload_config.json", 2_101_346_304, 216_817_053_696),
        # ZeRO-2 without offload: DeepSpeed's estimator prints its CPU line too (385452539904), so effbatch does
        ("llamafactory_ds_z2_config.json", 34_128_610_304, 385_452_539_904),
        ("llamafactory_ds_z2_offload_config.json", 16_060_522_496, 385_452_539_904),
    ],
)
def test_deepspeed_configs_agree_with_deepspeeds_own_estimators(ds_config: str, states: int, cpu: int | None) -> None:
    """LLaMA-Factory's full fine-tuning of Llama 3 8B with each of its DeepSpeed configs: the model states per GPU
    (and the CPU memory with offloading) are what DeepSpeed's estimators print; activations are effbatch's, said so."""
    check = check_config(_sources(MEMORY / "llamafactory_llama3_full_sft.yaml", MEMORY / ds_config), World(8, "gpus"))
    memory = check_json(check)["memory"]
    assert memory["rules"] == "deepspeed"
    assert memory["params"] == 8_030_261_248
    assert memory["model_states_bytes_per_gpu"] == states
    assert memory.get("cpu_bytes") == cpu
    assert "deepspeed_activations" in memory["quirks"]
    assert memory["recompute"] == "full"  # LLaMA-Factory checkpoints unless disable_gradient_checkpointing


def test_zero_stage_0_is_deepspeeds_bf16_optimizer() -> None:
    """DeepSpeed's estimators are for ZeRO-2 and -3; stage 0 in bf16 runs DeepSpeed's BF16_Optimizer
    (deepspeed/runtime/engine.py: bf16 with fp32 gradient accumulation is ``BFLOAT16``): the bf16 weights (2) and
    their fp32 gradients (4, bf16_optimizer.py line 162) whole on every GPU, the fp32 master partition and Adam
    (12, line 156) over d = 8; counted for the first stage's layers and embeddings (the final norm's 4.096 aside)."""
    sources = _sources(MEMORY / "llamafactory_llama3_full_sft.yaml", MEMORY / "llamafactory_ds_z0_config.json")
    memory = check_json(check_config(sources, World(8, "gpus")))["memory"]
    assert (memory["rules"], memory["framework"]) == ("effbatch", "deepspeed")
    n = memory["params_per_gpu"]
    assert n == 8_030_261_248 - 4096
    assert (memory["weights_bytes"], memory["grads_bytes"], memory["optimizer_bytes"]) == (2 * n, 4 * n, 12 * n // 8)


def _fsdp2_states(model: ModelSpec, n: int, shard: int, tp: int) -> float:
    """FSDP2's states as core/memory/holders/fsdp.py counts them: fp32 parameters, gradients and Adam sharded
    (16/d), two bf16 units gathered (2 · 2) and one unit's gradient in bf16 and its fp32 cast (2 + 4), a unit being
    a transformer block or the root's embedding, whichever is larger, after TP."""
    unit = max(model.layer_params / model.layers, model.embedding_params) / tp
    return 16 * n / shard + 10 * unit


@pytest.mark.parametrize(
    ("name", "world", "params", "data_parallel", "recompute"),
    [
        # torchtitan@238fa995's llama3 TOMLs (8B: FSDP over 64 GPUs, selective AC; 70B: TP 8, FSDP 8, full AC, 64 A100;
        # 405B: TP 8, FSDP 16, full AC, 128 H100, as their NOTE lines say). Parameters: torchtitan's own Transformer
        # built from its flavours on the meta device (torch 2.13 CPU, run outside this repository).
        ("torchtitan_llama3_8b.toml", 64, 8_030_261_248, 64, "selective"),
        ("torchtitan_llama3_70b.toml", 64, 70_553_706_496, 8, "full"),
        ("torchtitan_llama3_405b.toml", 128, 405_853_388_800, 16, "full"),
    ],
)
def test_torchtitan_flavours_are_counted_as_fsdp2_holds_them(
    name: str, world: int, params: int, data_parallel: int, recompute: str
) -> None:
    """`[model] name/flavor` names the model; torchtitan's FSDP2 (MixedPrecisionPolicy bf16/fp32) shards fp32
    parameters, gradients and Adam over dp_shard and gathers a block at a time (``_fsdp2_states``)."""
    check = check_config(_sources(MEMORY / name), World(world, "gpus"), gpu="h100")
    memory = check_json(check)["memory"]
    assert (memory["rules"], memory["params"], memory["recompute"]) == ("effbatch", params, recompute)
    assert memory["framework"] == "torchtitan"
    assert check.memory is not None
    setup, model = check.memory.setup, check.memory.model
    assert setup.data_parallel == data_parallel
    expected = _fsdp2_states(model, memory["params_per_gpu"], data_parallel, setup.tp)
    assert memory["model_states_bytes_per_gpu"] == pytest.approx(expected, abs=4)
    assert memory["fits"] is True


@pytest.mark.parametrize(
    ("name", "gpu", "recompute", "fits"),
    [
        # maxtext@e591f30's Llama 2 7B benchmark scripts for a v5p-512 (256 chips; remat_policy=minimal, b 4,
        # L 4.096) and a v5e-256 (remat_policy=save_qkv_proj, b 4, L 2.048); model_name=llama2-7b is
        # src/maxtext/configs/models/llama2-7b.yml: the table's shape (4.096, 32 heads, 11.008, 32 layers, 32.000).
        ("maxtext_v5p_llama2_7b.sh", "tpu-v5p", "selective", True),
        ("maxtext_v5e_llama2_7b.sh", "tpu-v5e", "full", True),
    ],
)
def test_maxtext_model_name_with_fsdp_over_every_chip(name: str, gpu: str, recompute: str, fits: bool) -> None:
    """`model_name=llama2-7b` on 256 chips with base.yml's mesh (ici_fsdp -1: every chip an FSDP shard): ZeRO-3
    over 256, 16 bytes a parameter / 256 plus the gathered embedding; Google's own scripts fit their TPUs."""
    check = check_config(_sources(MEMORY / name), World(256, "chips"), gpu=gpu)
    memory = check_json(check)["memory"]
    assert (memory["params"], memory["recompute"], memory["fits"]) == (6_738_415_616, recompute, fits)
    assert check.memory is not None
    assert check.memory.setup.data_parallel == 256
    gathered = 4 * 32_000 * 4096
    assert memory["model_states_bytes_per_gpu"] == round(16 * memory["params_per_gpu"] / 256) + gathered


@pytest.mark.parametrize(
    ("name", "world", "params", "shard", "recompute", "caveat"),
    [
        # OLMo-core@fa6c5014's own training scripts. Parameters: its TransformerConfig.<factory>(vocab_size=dolma2
        # padded to 100.352).num_params, run outside this repository (torch 2.13 CPU). HSDP shards within a node of 8
        # by default (distributed/parallel/data_parallel.py:48), OLMo2-32B's num_replicas=4 over 128.
        # OLMo-core recomputes nothing unless the script sets activation checkpointing: FSDP2's default, none.
        ("olmo_core_OLMo2-7B.py", 512, 7_298_617_344, 8, "none", ""),
        ("olmo_core_OLMo2-32B.py", 512, 32_234_279_936, 128, "full", "partial_recompute"),
        ("olmo_core_Llama3-8B.py", 64, 7_801_671_680, 8, "none", ""),
    ],
)
def test_olmo_core_factories_with_their_tokenizer(
    name: str, world: int, params: int, shard: int, recompute: str, caveat: str
) -> None:
    """`TransformerConfig.olmo2_7B(vocab_size=…)` is the table's shape with dolma2's padded vocabulary; HSDP shards
    FSDP2's states over its shard group (``_fsdp2_states``); OLMo2-32B recomputes its feed-forward modules only:
    counted as full recomputation and said to be a lower bound."""
    check = check_config(_sources(MEMORY / name), World(world, "gpus"), gpu="h100")
    memory = check_json(check)["memory"]
    assert (memory["params"], memory["recompute"], memory["fits"]) == (params, recompute, True)
    assert check.memory is not None
    assert (check.memory.setup.data_parallel, check.memory.facts.caveat) == (shard, caveat)
    assert memory["framework"] == "olmo_core"  # its train module, holding FSDP2's states
    expected = _fsdp2_states(check.memory.model, memory["params_per_gpu"], shard, check.memory.setup.tp)
    assert memory["model_states_bytes_per_gpu"] == pytest.approx(expected, abs=4)


def test_the_answer_says_the_estimate_in_german_with_its_convention() -> None:
    """The check's answer has „Speicher je GPU (Schätzung nach den Regeln von Megatron-LM)“ with each part, the total
    against the GPU given, and where the model came from."""
    check = check_config(_sources(MEMORY / "megatron_llama3_8b_h100_fp8.sh"), gpu="h100")
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)
    assert "Speicher je GPU (Schätzung nach den Regeln von Megatron-LM) – 32 Schichten, h = 4.096, 32 Köpfe" in shown
    for part in ("Gewichte: 15,0\u00a0GiB", "Gradienten: 29,9\u00a0GiB", "Optimiererzustände: 11,2\u00a0GiB"):
        assert part in shown
    assert "Aktivierungen: 37,9\u00a0GiB (b = 1, L = 8.192, ohne Neuberechnung)" in shown
    assert "Summe: 93,9\u00a0GiB" in shown  # what PyTorch allocates, by Megatron's estimator byte for byte
    # + 5 % allocator reserve + CUDA context and one NCCL communicator (core/memory/capacity.py), against the
    # 81.559 MiB an H100 SXM reports (torch.cuda.get_device_properties), not the data sheet's 80 GiB
    assert "Summe auf der GPU: 99,7\u00a0GiB von 79,6\u00a0GiB nutzbar (H100 SXM)" in shown
    assert "Modell aus megatron_llama3_8b_h100_fp8.sh:" in shown
    assert "verteilter Optimierer" in shown


def test_a_micro_batch_that_cannot_fit_is_a_warning_never_an_error() -> None:
    """Not even b = 1 fits by Megatron's own estimate: a warning naming the GPU; the run still counts as ok
    (exit code 0), since it is an estimate."""
    check = check_config(_sources(MEMORY / "megatron_llama3_8b_h100_fp8.sh"), gpu="h100")
    [finding] = [f for f in check.findings if f.code.startswith("memory/")]
    assert finding.code == "memory/does-not-fit"
    assert finding.level.value == "warning"
    assert check.ok
    assert finding_text(check, finding).startswith(
        "Laut Schätzung passt dieser Lauf auf keine H100 SXM, auch nicht mit b = 1: Er braucht 93,9\u00a0GiB je Gerät"
    )
    assert check_json(check)["memory"]["fits"] is False


def test_without_a_gpu_the_estimate_is_said_and_how_to_name_one() -> None:
    """No GPU named: the estimate without a verdict, no warning, and the option that adds one (CLI and Slack)."""
    check = check_config(_sources(MEMORY / "megatron_llama3_8b_h100_fp8.sh"))
    assert not [f for f in check.findings if f.code.startswith("memory/")]
    memory = check_json(check)["memory"]
    assert "fits" not in memory
    assert "gpu" not in memory
    cli = plain_text(check_answer(check, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)
    assert "Ob es passt, sage ich, wenn du die GPU nennst: --gpu h100" in cli
    slack = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    assert "/effbatch prüfe gpu=h100" in slack


def test_an_unknown_gpu_cannot_be_checked_against() -> None:
    """`--gpu v100`: the GPUs effbatch knows are named, nothing is guessed."""
    with pytest.raises(CheckError) as raised:
        check_config(_sources(MEMORY / "megatron_llama3_8b_h100_fp8.sh"), gpu="v100")
    assert raised.value.kind is ProblemKind.UNKNOWN_GPU
    assert "h100, h200, b200" in raised.value.ctx["gpus"]


def test_the_gpu_named_in_slack_reaches_the_check_process() -> None:
    """`prüfe gpus=8 gpu=H100` before the pasted config: the grammar takes the GPU as a setting, and a check process
    (the bot's pool, 2 s and 256 MiB) answers with the memory held against it."""
    launch = (MEMORY / "megatron_llama3_8b_h100_fp8.sh").read_text()
    request = check_request(f"prüfe gpus=8 gpu=H100 privat\n{launch}")
    assert (request.gpu, request.private, request.world is not None) == ("h100", True, True)
    pool = CheckPool(processes=1, seconds=30, memory=256 * 1024 * 1024, wait=30)
    try:
        check = pool([Source("run.sh", request.text)], request.world, gpu=request.gpu)
    finally:
        pool.close()
    assert check.memory is not None
    assert check_json(check)["memory"]["gpu"] == "h100"


@pytest.mark.parametrize(
    ("optim", "said"),
    [
        # NeMo's megatron_base_model.py line 152: optim.name distributed_fused_adam is Apex's optimizer (no
        # Megatron-core DDP, megatron_gpt_model.py lines 519-549); its grad_sync_dtype and dtype as the YAML writes them
        ("name: distributed_fused_adam\n    grad_sync_dtype: bf16", ("distributed_fused_adam", "bf16", None)),
        ("name: distributed_fused_adam\n    dtype: bf16", ("distributed_fused_adam", None, "bf16")),
        ("name: distributed_fused_adam", ("distributed_fused_adam", None, None)),
        ("name: fused_adam", ("own", None, None)),  # Megatron-core's optimizer: nothing of Apex's passed
    ],
)
def test_nemo_yaml_passes_its_optimizer(optim: str, said: tuple[str, str | None, str | None]) -> None:
    """A NeMo YAML's ``optim.name`` (with its ``grad_sync_dtype`` and ``dtype``) reaches the set-up the check
    estimates."""
    path = MEMORY / "nemo_megatron_gpt_config.yaml"
    text = path.read_text().replace("    name: fused_adam", f"    {optim}", 1)
    check = check_config([Source(path.name, text)], None, gpu="h100")
    assert check.memory is not None
    setup = check.memory.setup
    assert (str(setup.optimizer), setup.grad_sync, setup.optim_dtype) == said
