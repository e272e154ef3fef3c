"""Every rule of every framework: one German row whose placeholders are exactly its context's fields, and a sample
config that triggers it and renders without a gap.

The samples are the smallest configs that reach each rule in the framework's own code (the modules in
``core/configs/`` cite the source lines); the numbers they produce are asserted in tests/test_checks.py.
"""

from __future__ import annotations

import functools
import re
import string
from typing import Any

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.checks import check_answer, finding_text, formula
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.texts import checks as texts
from effbatch.core.configs import Check, Source, World, all_frameworks, check_config, rules
from effbatch.core.configs.base import context_fields

from slack_checks import all_text

DS = "ds.json"
LAUNCH = "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1"
AXOLOTL = "base_model: x\nsequence_len: 2048\n"
OLMO = "model:\n  max_sequence_length: 4096\ndevice_train_microbatch_size: 4\n"
TITAN = "[training]\nseq_len = 2048\n"
FOUNDRY = "max_seq_len: 2048\ntrain_loader:\n  name: text\n"
LITGPT = "out_dir: out\ndevices: 8\ntrain:\n  max_seq_length: 512\n"
TUNE = "model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\ntokenizer:\n  max_seq_len: 2048\nbatch_size: 2\n"
MAXTEXT = "python3 -m MaxText.train MaxText/configs/base.yml max_target_length=2048"
ACC = "distributed_type: MULTI_GPU\nnum_machines: 1\nnum_processes: 8\n"
ACC_PARALLEL = "distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\nnum_processes: 8\nparallelism_config:\n"
SPLIT = "per_device_train_batch_size: {}\naccelerator_config:\n  split_batches: true\n"
PL = "trainer:\n  devices: 8\n  {}\ndata:\n  batch_size: 4\n"
PL_SCHEDULER = (
    "callbacks:\n  - class_path: lightning.pytorch.callbacks.GradientAccumulationScheduler\n"
    "    init_args:\n      scheduling:\n        4: 2\n"
)
PL_MODEL_PARALLEL = "strategy:\n    class_path: lightning.pytorch.strategies.ModelParallelStrategy\n"
LF = "stage: sft\ntemplate: llama3\nper_device_train_batch_size: 1\ngradient_accumulation_steps: {}\n"
LF_BRIDGE = "USE_MEGATRON_BRIDGE=1 NPROC_PER_NODE=8 llamafactory-cli train x.yaml"
LF_V1 = "model_class: llm\ntrain_dataset: data/v1_sft_demo.yaml\nmicro_batch_size: 2\n"
GRPO = "reward_funcs: [accuracy_reward]\nnum_processes: 2\nper_device_train_batch_size: 4\n"
VERL_BASE = (
    "python3 -m verl.trainer.main_ppo data.train_batch_size=64 actor_rollout_ref.rollout.n=4"
    " actor_rollout_ref.actor.ppo_mini_batch_size=16 algorithm.adv_estimator=grpo"
)
VERL = f"{VERL_BASE} trainer.n_gpus_per_node=8"
VERL_MICRO = f"{VERL} actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2"
VERL_DYNAMIC = f"{VERL_BASE} actor_rollout_ref.actor.use_dynamic_bsz=True"
VERL_OLD = f"{VERL} actor_rollout_ref.actor.ppo_micro_batch_size=16"
#: PPO with a critic: GAE is verl's default advantage estimator
VERL_PPO = f"{VERL_MICRO} algorithm.adv_estimator=gae"
VERL_DAPO = VERL_MICRO.replace("verl.trainer.main_ppo", "recipe.dapo.main_dapo")
#: fixtures/06: 60 prompts × 5 on 6 GPUs, mini 20 · 5 = 100 // 6 = 16 per GPU
VERL_SIX = (
    "python3 -m verl.trainer.main_ppo data.train_batch_size=60 actor_rollout_ref.rollout.n=5"
    " actor_rollout_ref.actor.ppo_mini_batch_size=20 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4"
    " trainer.n_gpus_per_node=6 algorithm.adv_estimator=grpo"
)
ORLHF = (
    "python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 1 --actor.num_gpus_per_node 8 --rollout.batch_size 128"
    " --train.batch_size 128"
)
#: fixtures/07 with micro 8: 400 samples, train.batch_size 128 (3 steps, floored), 50 a GPU in micro-batches of 8
ORLHF_FLOORED = (
    ORLHF.replace("rollout.batch_size 128", "rollout.batch_size 100")
    + " --rollout.n_samples_per_prompt 4 --train.micro_batch_size 8"
)
SFT = "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/Capybara\nper_device_train_batch_size: 4\n"
RLOO_OLD = (
    "rloo_k: 4\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 2\nnum_mini_batches: 2\n"
    "num_ppo_epochs: 2\n"
)
#: TRL's examples/accelerate_configs/alst_ulysses_4gpu.yaml (f2cd577)
ALST = (
    "compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  zero_stage: 3\ndistributed_type: DEEPSPEED\n"
    "num_machines: 1\nnum_processes: 4\nparallelism_config:\n  parallelism_config_dp_replicate_size: 1\n"
    "  parallelism_config_dp_shard_size: 2\n  parallelism_config_tp_size: 1\n  parallelism_config_sp_size: 2\n"
    "  parallelism_config_sp_backend: deepspeed\n"
)
NANOTRON = (
    "parallelism:\n  dp: 4\n  pp: 1\n  tp: 2\n"
    "tokens:\n  sequence_length: 4096\n  train_steps: 10\n  micro_batch_size: 3\n  batch_accumulation_per_replica: 1\n"
)
NANOTRON_HEADS = "model:\n  model_config:\n    num_attention_heads: {}\n    num_key_value_heads: {}\n"
DP_CONFIG = "dp_config=TransformerDataParallelConfig(name=DataParallelType.{})"
TP_CONFIG = "tp_config=TransformerTensorParallelConfig(degree={})"
EP_CONFIG = "ep_config=TransformerExpertParallelConfig(degree=2)"
SCHEDULE_CALL = (
    "callback = BatchSizeSchedulerCallback(batch_sizes=[16 * S, {} * S], "
    "schedule=[Duration.tokens(0), Duration.tokens(10**9)])\n"
)


def olmo_core(gbs: str = "16 * S", micro: str = "2 * S", extra: str = "", tail: str = "") -> tuple[tuple[str, str]]:
    """A launch script in the shape of OLMo-core's src/scripts/train/template.py, batches in tokens."""
    text = (
        "from olmo_core.data import NumpyDataLoaderConfig\nS = 4096\n"
        f"loader = NumpyDataLoaderConfig(global_batch_size={gbs})\n"
        f"module = TransformerTrainModuleConfig(rank_microbatch_size={micro}, max_sequence_length=S{extra})\n{tail}"
    )
    return (("train.py", text),)


#: A NeMo 2 library recipe used and changed (``recipe = llm.<model>.pretrain_recipe(…)``, then ``recipe.… = …``).
NEMO2_USE = (
    "import nemo_run as run\nfrom nemo.collections import llm\n\nrecipe = llm.{model}.pretrain_recipe()\n{change}\n"
)
NEMO2 = (
    "import nemo_run as run\nfrom nemo import lightning as nl\n\n\n"
    "def trainer(tensor_parallelism: int = 4, num_nodes: int = 4, num_gpus_per_node: int = 8):\n"
    "    strategy = run.Config(nl.MegatronStrategy, tensor_model_parallel_size=tensor_parallelism)\n"
    "    return run.Config(nl.Trainer, devices=num_gpus_per_node, num_nodes=num_nodes, strategy=strategy)\n\n\n"
    "def pretrain_recipe(num_nodes: int = 1, num_gpus_per_node: int = 8):\n"
    "    data = run.Config(MockDataModule, seq_length=8192, global_batch_size=512, micro_batch_size=1)\n"
    "    return run.Partial(pretrain, trainer=trainer(num_nodes=num_nodes), data=data)\n"
)


def bridge(*lines: str, base: str = "_pretrain_common", name: str = "x_pretrain_config") -> tuple[tuple[str, str]]:
    """A Megatron-Bridge recipe in the shape of recipes/llama/h100/llama3.py: a base, then ``cfg.…`` assignments."""
    body = "".join(f"    cfg.{line}\n" for line in lines)
    imports = f"from megatron.bridge.recipes.common import {base}\n\n\n"
    text = f"{imports}def {name}():\n    cfg = {base}()\n{body}    return cfg\n"
    return (("recipe.py", text),)


GBS_100 = ("train.global_batch_size = 100", "train.micro_batch_size = 2")
LEVANTER = "model:\n  type: gpt2\n  seq_len: 1024\ntrainer:\n"
LEVANTER_SCHEDULE = "  train_batch_size:\n    - start: 0\n      value: 60\n    - start: 64\n      value: 128\n"
#: Llama 2 7B's shape as Megatron-LM's flags (huggingface.co/meta-llama/Llama-2-7b-hf/config.json), TP 8 with
#: sequence parallelism and selective recomputation.
LLAMA2_7B = (
    "pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 11008 --swiglu "
    "--vocab-size 32000 --untie-embeddings-and-output-weights --normalization RMSNorm --disable-bias-linear "
    "--seq-length 4096 --tensor-model-parallel-size 8 --sequence-parallel --recompute-activations --bf16"
)
DS_THREE = '{"train_batch_size": 256, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8}'
#: A script that adds DeepSpeed's arguments to its parser and hands the namespace to deepspeed.initialize.
DS_SCRIPT = (
    "import argparse\nimport deepspeed\nparser = deepspeed.add_config_arguments(argparse.ArgumentParser())\n"
    "args = parser.parse_args()\n"
)

REQ = "requirements.txt"
SFT_PACKED = "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/Capybara\npacking: true\n"
LF_SFT = "stage: sft\ntemplate: llama3\ncutoff_len: 1024\nper_device_train_batch_size: 2\n"
#: code → (sources as (name, text), world size given or None)
SAMPLES: dict[str, tuple[tuple[tuple[str, str], ...], int | None]] = {
    "deepspeed/batch-assertion": (((DS, DS_THREE.replace('": 8}', '": 1}')),), 8),
    "deepspeed/filled-in": (((DS, '{"train_batch_size": 256, "train_micro_batch_size_per_gpu": 4}'),), 8),
    "deepspeed/filled-in-product": (
        ((DS, '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}'),),
        8,
    ),
    "deepspeed/required-world-size": (((DS, DS_THREE),), None),
    "deepspeed/no-world-size-fits": (((DS, DS_THREE.replace("256", "100")),), None),
    "deepspeed/missing-batch-size": (((DS, '{"gradient_accumulation_steps": 2, "zero_optimization": {}}'),), 8),
    "deepspeed/sequence-parallel": (((DS, '{"train_micro_batch_size_per_gpu": 2, "sequence_parallel_size": 4}'),), 16),
    "deepspeed/sequence-parallel-world-size": (
        ((DS, '{"train_micro_batch_size_per_gpu": 2, "sequence_parallel_size": 4}'),),
        10,
    ),
    "deepspeed/autotp-counted-as-data-parallel": (
        ((DS, '{"train_micro_batch_size_per_gpu": 2, "tensor_parallel": {"autotp_size": 4}}'),),
        8,
    ),
    "deepspeed/world-size-before-launch": (((DS, DS_THREE),), 8),
    "deepspeed/auto-without-trainer": (((DS, '{"train_batch_size": "auto", "zero_optimization": {}}'),), 8),
    "deepspeed/initialize-without-config": (
        (("train.py", "import deepspeed\ndeepspeed.initialize(model=None)\n"), ("run.sh", "deepspeed train.py\n")),
        8,
    ),
    "deepspeed/initialize-two-configs": (
        (
            ("train.py", DS_SCRIPT + "deepspeed.initialize(args=args, config={'train_batch_size': 8})\n"),
            ("run.sh", "deepspeed train.py --deepspeed_config ds.json\n"),
        ),
        8,
    ),
    "deepspeed/script-loader-differs": (
        (
            (
                "train.py",
                "import deepspeed\nfrom torch.utils.data import DataLoader\n"
                "loader = DataLoader([], batch_size=8, shuffle=True)\n"
                "deepspeed.initialize(model=None, config={'train_batch_size': 16})\n",
            ),
        ),
        8,
    ),
    "deepspeed/initialize-config-among-files": (
        (("train.py", DS_SCRIPT + "deepspeed.initialize(args=args)\n"), (DS, DS_THREE)),
        8,
    ),
    "huggingface/total-train-batch-size": ((("args.yaml", "per_device_train_batch_size: 4\n"),), 8),
    "huggingface/deepspeed-auto": (
        (("args.yaml", "per_device_train_batch_size: 4\n"), (DS, '{"train_batch_size": "auto"}')),
        8,
    ),
    "huggingface/deepspeed-mismatch": (
        (("args.yaml", "per_device_train_batch_size: 4\n"), (DS, '{"train_micro_batch_size_per_gpu": 8}')),
        8,
    ),
    # transformers' trainer.py (4.28.1:439, 5.17.0:461): --fsdp together with --deepspeed raises in Trainer.__init__
    "huggingface/fsdp-with-deepspeed": (
        (("args.yaml", "per_device_train_batch_size: 4\nfsdp: full_shard auto_wrap\ndeepspeed: ds.json\n"),),
        8,
    ),
    # transformers' training_args.py: evaluation_strategy gone in 4.51.0, warmup_ratio in 5.15.0
    "huggingface/argument-not-taken": (
        (("args.yaml", "per_device_train_batch_size: 4\nevaluation_strategy: steps\n"), (REQ, "transformers==4.51.0")),
        8,
    ),
    # llamafactory's hparams: neat_packing a field from 0.8.3; paged_adamw none in any release
    "llamafactory/key-not-taken": ((("lf.yaml", LF_SFT + "neat_packing: true\n"), (REQ, "llamafactory==0.8.2")), 8),
    "llamafactory/key-by-release": ((("lf.yaml", LF_SFT + "neat_packing: true\n"),), 8),
    "llamafactory/unknown-keys": ((("lf.yaml", LF_SFT + "paged_adamw: true\n"),), 8),
    # trl's sft_config.py: max_length a field from 0.16.0
    "trl/sft-key-not-taken": (
        (("sft.yaml", SFT_PACKED + "max_length: 512\n"), (REQ, "trl==0.15.0"), ("run.sh", "trl sft --config sft.yaml")),
        8,
    ),
    "trl/sft-key-by-release": (
        (("sft.yaml", SFT_PACKED + "max_length: 512\n"), (REQ, "trl>=0.14"), ("run.sh", "trl sft --config sft.yaml")),
        8,
    ),
    "huggingface/argument-by-release": ((("args.yaml", "per_device_train_batch_size: 4\nwarmup_ratio: 0.1\n"),), 8),
    "megatron/world-size-divisible": ((("run.sh", f"{LAUNCH} --tensor-model-parallel-size 16"),), None),
    "megatron/global-batch-size-default": ((("run.sh", LAUNCH),), None),
    "megatron/global-batch-size-divisible": ((("run.sh", f"{LAUNCH} --global-batch-size 12"),), None),
    "megatron/sequence-parallel": (
        (("run.sh", f"{LAUNCH} --tensor-model-parallel-size 2 --sequence-parallel --global-batch-size 8"),),
        None,
    ),
    "megatron/sequence-parallel-without-tensor-parallel": (
        (("run.sh", f"{LAUNCH} --sequence-parallel --global-batch-size 8"),),
        None,
    ),
    "megatron/expert-parallel-divisible": (
        (("run.sh", f"{LAUNCH} --expert-model-parallel-size 16 --global-batch-size 8"),),
        None,
    ),
    "megatron/rampup-batch-size-deprecated": (
        (("run.sh", f"{LAUNCH} --global-batch-size 256 --rampup-batch-size 32 32 7000"),),
        None,
    ),
    "megatron/rampup-interval": (
        (("run.sh", f"{LAUNCH} --global-batch-size 256 --rampup-batch-size 32 30 7000"),),
        None,
    ),
    "megatron/rampup-unreadable": (
        (("run.sh", f"{LAUNCH} --global-batch-size 256 --rampup-batch-size 32 x 7000"),),
        None,
    ),
    "megatron/rampup-start": ((("run.sh", f"{LAUNCH} --global-batch-size 256 --rampup-batch-size 0 32 7000"),), None),
    "megatron/step-schedule-with-global-batch-size": (
        (("run.sh", f'{LAUNCH} --global-batch-size 64 --step-batch-size-schedule "0:64 1M:128"'),),
        None,
    ),
    "megatron/step-schedule-first-threshold": ((("run.sh", f'{LAUNCH} --step-batch-size-schedule "100:64"'),), None),
    "megatron/step-schedule-increasing": ((("run.sh", f'{LAUNCH} --step-batch-size-schedule "0:64 0:128"'),), None),
    "megatron/phase-divisible": ((("run.sh", f'{LAUNCH} --step-batch-size-schedule "0:64 1M:100"'),), None),
    "megatron/num-layers-divisible": (
        (("run.sh", f"{LAUNCH} --num-layers 30 --pipeline-model-parallel-size 4 --global-batch-size 8"),),
        None,
    ),
    "nemo/global-batch-size-divisible": (
        (("nemo.yaml", "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n  global_batch_size: 100\n"),),
        None,
    ),
    "nemo/world-size-divisible": (
        (("nemo.yaml", "trainer:\n  devices: 6\nmodel:\n  micro_batch_size: 1\n  tensor_model_parallel_size: 4\n"),),
        None,
    ),
    "nemo/missing-mandatory-value": (
        (("nemo.yaml", "defaults:\n  - base\ntrainer:\n  devices: 8\nmodel:\n  micro_batch_size: ???\n"),),
        None,
    ),
    "nemo/defaults-not-given": (
        (("nemo.yaml", "defaults:\n  - base\ntrainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n"),),
        None,
    ),
    "nemo/config-not-given": (
        (("run.sh", "python megatron_gpt_pretraining.py model.global_batch_size=64 trainer.devices=8\n"),),
        None,
    ),
    "nemo/hydra-override-no-key": (
        (
            ("nemo.yaml", "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n"),
            ("run.sh", "python train.py --config-name nemo model.global_batch_size=64\n"),
        ),
        None,
    ),
    "nemo/hydra-append-exists": (
        (
            ("nemo.yaml", "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n"),
            ("run.sh", "python train.py --config-name nemo +model.micro_batch_size=4\n"),
        ),
        None,
    ),
    "torchtitan/parallel-dims": ((("t.toml", f"{TITAN}[parallelism]\ntensor_parallel_degree = 3\n"),), 8),
    "torchtitan/global-batch-size-divisible": (
        (("t.toml", f"{TITAN}local_batch_size = 8\nglobal_batch_size = 100\n"),),
        8,
    ),
    "torchtitan/tokens-per-step-divisible": (
        (("t.toml", f"{TITAN}num_tokens_per_microbatch_per_dp_rank = 8192\nnum_tokens_per_train_step = 100000\n"),),
        8,
    ),
    "torchtitan/batch-size-is-local": ((("t.toml", f"{TITAN}batch_size = 8\n"),), 8),
    "torchtitan/first-config-of-registry": (
        (
            (
                "registry.py",
                "def a():\n    TrainingConfig(local_batch_size=2, seq_len=2048)\n\n\ndef b():\n    TrainingConfig()\n",
            ),
        ),
        8,
    ),
    "nanogpt/accumulation-is-global": ((("train.py", "batch_size = 12\ngradient_accumulation_steps = 40\n"),), 8),
    "nanogpt/accumulation-divisible": ((("train.py", "batch_size = 12\ngradient_accumulation_steps = 40\n"),), 3),
    "nanogpt/train-py-defaults": ((("train.py", "batch_size = 12\nn_layer = 12\n"),), 8),
    "nanogpt/train-py-assertion": (
        (
            (
                "train.py",
                "import os\nbatch_size = 12\ngradient_accumulation_steps = 5\n"
                "exec(open('configurator.py').read())\nddp_world_size = int(os.environ['WORLD_SIZE'])\n"
                "assert gradient_accumulation_steps % ddp_world_size == 0\n",
            ),
        ),
        8,
    ),
    "axolotl/two-of-three": ((("a.yaml", f"{AXOLOTL}micro_batch_size: 4\n"),), 8),
    "axolotl/only-one-of-accumulation-and-batch-size": (
        (("a.yaml", f"{AXOLOTL}micro_batch_size: 4\ngradient_accumulation_steps: 2\nbatch_size: 32\n"),),
        8,
    ),
    "axolotl/floored": (
        (("a.yaml", f"{AXOLOTL}micro_batch_size: 4\ngradient_accumulation_steps: null\nbatch_size: 30\n"),),
        8,
    ),
    "axolotl/batch-size-ignored": ((("a.yaml", f"{AXOLOTL}micro_batch_size: 4\nbatch_size: 32\n"),), 8),
    "axolotl/parallel-world-size": (
        (("a.yaml", f"{AXOLOTL}micro_batch_size: 4\ngradient_accumulation_steps: 2\ntensor_parallel_size: 2\n"),),
        8,
    ),
    "axolotl/parallelism-incompatible": (
        (
            (
                "a.yaml",
                f"{AXOLOTL}micro_batch_size: 4\ngradient_accumulation_steps: 2\n"
                "dp_shard_size: 3\nfsdp_config: {a: 1}\n",
            ),
        ),
        8,
    ),
    "llmfoundry/global-batch-size-divisible": (
        (("f.yaml", f"{FOUNDRY}global_train_batch_size: 100\ndevice_train_microbatch_size: 4\n"),),
        8,
    ),
    "llmfoundry/missing-batch-key": ((("f.yaml", f"{FOUNDRY}global_train_batch_size: 256\n"),), 8),
    "llmfoundry/microbatch-reduced": (
        (("f.yaml", f"{FOUNDRY}global_train_batch_size: 16\ndevice_train_microbatch_size: 8\n"),),
        8,
    ),
    "llmfoundry/uneven-microbatches": (
        (("f.yaml", f"{FOUNDRY}global_train_batch_size: 96\ndevice_train_microbatch_size: 5\n"),),
        8,
    ),
    "llmfoundry/auto-microbatch": (
        (("f.yaml", f"{FOUNDRY}global_train_batch_size: 512\ndevice_train_microbatch_size: auto\n"),),
        8,
    ),
    "llmfoundry/replication": (
        (
            (
                "f.yaml",
                "max_seq_len: 2048\ntrain_loader:\n  dataset:\n    replication: 2\n"
                "global_train_batch_size: 64\ndevice_train_microbatch_size: 4\n",
            ),
        ),
        8,
    ),
    "llmfoundry/replication-divides-world": (
        (
            (
                "f.yaml",
                "max_seq_len: 2048\ntrain_loader:\n  dataset:\n    replication: 3\n"
                "global_train_batch_size: 64\ndevice_train_microbatch_size: 4\n",
            ),
        ),
        8,
    ),
    "llmfoundry/tensor-parallel-keeps-batch": (
        (
            (
                "f.yaml",
                f"{FOUNDRY}global_train_batch_size: 64\ndevice_train_microbatch_size: 4\n"
                "tp_config:\n  strategy: ffn\n  tensor_parallel_degree: 2\n",
            ),
        ),
        8,
    ),
    "litgpt/per-device-floored": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 100\n  micro_batch_size: 4\n"),),
        None,
    ),
    "litgpt/accumulation-floored": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 96\n  micro_batch_size: 5\n"),),
        None,
    ),
    "litgpt/nothing-per-device": ((("l.yaml", f"{LITGPT}  global_batch_size: 4\n  micro_batch_size: 1\n"),), None),
    "litgpt/micro-batch-larger-than-per-device": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 32\n  micro_batch_size: 8\n"),),
        None,
    ),
    "litgpt/per-machine-in-old-versions": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 512\n  micro_batch_size: 4\nnum_nodes: 4\n"),),
        None,
    ),
    "litgpt/nodes-above-world": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 512\n  micro_batch_size: 4\nnum_nodes: 4\n"),),
        2,
    ),
    "litgpt/devices-auto": (
        (("l.yaml", "out_dir: out\ndevices: auto\ntrain:\n  global_batch_size: 64\n  micro_batch_size: 4\n"),),
        8,
    ),
    "litgpt/pretrain-requires": (
        (("l.yaml", f"{LITGPT}  global_batch_size: 512\n  micro_batch_size: 4\n  max_tokens: null\n"),),
        None,
    ),
    "torchtune/parallel-dims": ((("t.yaml", f"{TUNE}gradient_accumulation_steps: 1\ntensor_parallel_dim: 3\n"),), 8),
    "torchtune/data-parallel-excludes-tp-cp": (
        (
            (
                "t.yaml",
                f"{TUNE}gradient_accumulation_steps: 1\ntensor_parallel_dim: 2\ntensor_parallel_plan: {{a: 1}}\n",
            ),
        ),
        8,
    ),
    "torchtune/tensor-parallel-plan": (
        (("t.yaml", f"{TUNE}gradient_accumulation_steps: 1\ntensor_parallel_dim: 2\n"),),
        8,
    ),
    "torchtune/optimizer-in-bwd-accumulation": (
        (("t.yaml", f"{TUNE}gradient_accumulation_steps: 4\noptimizer_in_bwd: True\n"),),
        8,
    ),
    "torchtune/packed-without-max-seq-len": (
        (
            (
                "t.yaml",
                "model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\ndataset:\n  packed: True\n"
                "batch_size: 2\ngradient_accumulation_steps: 1\n",
            ),
        ),
        8,
    ),
    "torchtune/single-device-recipe-distributed": (
        (
            (
                "t.yaml",
                f"# tune run --nproc_per_node 2 full_finetune_single_device --config t.yaml\n{TUNE}"
                "gradient_accumulation_steps: 1\n",
            ),
        ),
        None,
    ),
    "torchtune/no-max-seq-len": (
        (
            (
                "t.yaml",
                "model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\nbatch_size: 2\n"
                "gradient_accumulation_steps: 1\n",
            ),
        ),
        8,
    ),
    "maxtext/mesh": ((("m.sh", f"{MAXTEXT} per_device_batch_size=2 ici_tensor_parallelism=3"),), 8),
    "maxtext/floored": ((("m.sh", f"{MAXTEXT} per_device_batch_size=1.125"),), 4),
    "maxtext/per-device-counts-every-chip": (
        (("m.sh", f"{MAXTEXT} per_device_batch_size=2 ici_tensor_parallelism=4"),),
        8,
    ),
    "maxtext/below-one-per-device": ((("m.sh", f"{MAXTEXT} per_device_batch_size=0.25"),), 16),
    "maxtext/fp8-accumulation": (
        (("m.sh", f"{MAXTEXT} per_device_batch_size=2 gradient_accumulation_steps=4 quantization=fp8"),),
        8,
    ),
    "maxtext/vocab-tiling": ((("m.sh", f"{MAXTEXT} per_device_batch_size=1.3"),), 8),
    "maxtext/pipeline-microbatches": (
        (("m.sh", f"{MAXTEXT} per_device_batch_size=0.5 ici_pipeline_parallelism=4 num_pipeline_microbatches=8"),),
        8,
    ),
    "olmo/floored": ((("o.yaml", f"{OLMO}global_train_batch_size: 1024\n"),), 24),
    "olmo/nothing-per-device": ((("o.yaml", f"{OLMO}global_train_batch_size: 16\n"),), 24),
    "olmo/uneven-microbatches": ((("o.yaml", f"{OLMO}global_train_batch_size: 1024\n"),), 24),
    "accelerate/num-processes-unset": ((("acc.yaml", ACC.replace("8", "-1")),), None),
    "accelerate/num-processes-missing": ((("acc.yaml", "distributed_type: FSDP\nfsdp_config: {}\n"),), None),
    "accelerate/processes-floored": ((("acc.yaml", ACC.replace("1", "4").replace("8", "10")),), None),
    "accelerate/parallelism-total": ((("acc.yaml", f"{ACC_PARALLEL}  parallelism_config_tp_size: 2\n"),), None),
    "accelerate/fsdp-no-shard-dimension": (
        (("acc.yaml", f"{ACC_PARALLEL}  parallelism_config_tp_size: 8\n"),),
        None,
    ),
    "accelerate/model-parallel": (
        (("acc.yaml", f"{ACC_PARALLEL}  parallelism_config_tp_size: 2\n  parallelism_config_dp_shard_size: 4\n"),),
        None,
    ),
    "accelerate/loader-batch": ((("acc.yaml", ACC),), None),
    "accelerate/split-batches": ((("args.yaml", SPLIT.format(32)), ("acc.yaml", ACC)), None),
    "accelerate/split-batches-divisible": ((("args.yaml", SPLIT.format(30)), ("acc.yaml", ACC)), None),
    "lightning/strategy-removed": ((("pl.yaml", PL.format("strategy: dp")),), None),
    "lightning/scheduler-and-accumulate": (
        (("pl.yaml", PL.format("accumulate_grad_batches: 2\n  " + PL_SCHEDULER.replace("\n", "\n  "))),),
        None,
    ),
    "lightning/model-parallel-world-size": (
        (("pl.yaml", PL.format(PL_MODEL_PARALLEL + "    init_args:\n      data_parallel_size: 2")),),
        None,
    ),
    "lightning/model-parallel": ((("pl.yaml", PL.format("num_nodes: 2\n  " + PL_MODEL_PARALLEL)),), None),
    "lightning/devices-from-machine": ((("pl.yaml", PL.format("strategy: ddp").replace("8", "-1")),), 4),
    "lightning/accumulation-schedule": (
        (("pl.yaml", PL.format(PL_SCHEDULER.replace("\n", "\n  "))),),
        None,
    ),
    "lightning/last-window": ((("pl.yaml", PL.format("accumulate_grad_batches: 2")),), None),
    "lightning/batch-in-datamodule": (
        (("pl.yaml", PL.format("strategy: ddp").replace("batch_size: 4", "num_workers: 4")),),
        None,
    ),
    "llamafactory/neat-packing-outside-sft": (
        (("lf.yaml", LF.format(1).replace("sft", "pt") + "neat_packing: true\n"),),
        8,
    ),
    "llamafactory/packing-cutoff": ((("lf.yaml", LF.format(1) + "packing: true\ncutoff_len: 4096\n"),), 8),
    "llamafactory/pretrain-packs": ((("lf.yaml", LF.format(1).replace("sft", "pt")),), 8),
    "llamafactory/megatron-bridge-parallel-exceeds": (
        (("run.sh", LF_BRIDGE), ("lf.yaml", LF.format(1) + "tensor_model_parallel_size: 16\n")),
        None,
    ),
    "llamafactory/megatron-bridge-parallel-divisible": (
        (("run.sh", LF_BRIDGE), ("lf.yaml", LF.format(1) + "tensor_model_parallel_size: 3\n")),
        None,
    ),
    "llamafactory/megatron-bridge-divides-by-ep": (
        (("run.sh", LF_BRIDGE), ("lf.yaml", LF.format(4) + "expert_model_parallel_size: 4\n")),
        None,
    ),
    "llamafactory/megatron-bridge-global-batch-divisible": (
        (("run.sh", LF_BRIDGE), ("lf.yaml", LF.format(1) + "expert_model_parallel_size: 4\n")),
        None,
    ),
    "llamafactory/megatron-bridge-needs-env": (
        (("lf.yaml", LF.format(1) + "tensor_model_parallel_size: 2\nuse_packed_sequences: false\n"),),
        8,
    ),
    "llamafactory/mca-not-read": ((("lf.yaml", LF.format(8) + "pipeline_model_parallel_size: 4\n"),), 8),
    "llamafactory/unused-keys": (
        (
            ("run.sh", LF_BRIDGE.replace("USE_MEGATRON_BRIDGE", "FORCE_TORCHRUN")),
            ("lf.yaml", LF.format(1) + "tensor_model_parallel_size: 2\n"),
        ),
        None,
    ),
    "llamafactory/world-from-machine": (
        (("run.sh", "FORCE_TORCHRUN=1 llamafactory-cli train x.yaml"), ("lf.yaml", LF.format(1))),
        8,
    ),
    "llamafactory/v1-global-batch-divisible": ((("lf.yaml", LF_V1 + "global_batch_size: 30\ncp_size: 2\n"),), 8),
    "llamafactory/v1-cp-divisible": ((("lf.yaml", LF_V1 + "cp_size: 3\n"),), 8),
    "llamafactory/v1-token-budget": ((("lf.yaml", LF_V1 + "batching_strategy: dynamic_batching\n"),), 8),
    # The memory estimate (Megatron-LM's convention) held against the GPU in SAMPLE_GPUS: Llama 2 7B's shape.
    "memory/micro-batch-does-not-fit": (
        (("run.sh", LLAMA2_7B + " --micro-batch-size 64 --global-batch-size 512"),),
        16,
    ),
    "memory/does-not-fit": (
        (("run.sh", LLAMA2_7B.replace("--tensor-model-parallel-size 8", "--micro-batch-size 1")),),
        8,
    ),
    "script/branches-agree": ((("run.sh", 'if [ "$1" = a ]; then X=1; fi\n' + LAUNCH),), None),
    "script/branches-differ": (
        (("run.sh", 'if [ "$1" = a ]; then G=16; else G=8; fi\n' + LAUNCH + " --global-batch-size $G"),),
        None,
    ),
    "script/branch-refused": (
        (("run.sh", 'if [ "$1" = a ]; then G=16; else G=12; fi\n' + LAUNCH + " --global-batch-size $G"),),
        None,
    ),
    # TRL GRPO: the fixtures of /work/research/trl_grpo/fixtures, run through TRL 1.16.0's GRPOConfig
    "trl/generation-batch-divisible": ((("g.yaml", f"{GRPO}num_generations: 3\n"),), None),
    "trl/counts-prompts": ((("g.yaml", GRPO), ("requirements.txt", "trl==0.14.0\n")), None),
    "trl/counted-prompts-before-0-15": ((("g.yaml", GRPO),), None),
    "trl/generation-batch-multiple": ((("g.yaml", f"{GRPO}generation_batch_size: 12\n"),), None),
    "trl/generation-keys-both": ((("g.yaml", f"{GRPO}generation_batch_size: 16\nsteps_per_generation: 2\n"),), None),
    "trl/one-generation": ((("g.yaml", f"{GRPO}num_generations: 1\n"),), None),
    "trl/auto-find-batch-size": ((("g.yaml", f"{GRPO}auto_find_batch_size: true\n"),), None),
    "trl/max-prompt-length-removed": ((("g.yaml", f"{GRPO}max_prompt_length: 512\n"),), None),
    "trl/steps-straddle-generations": (
        (("g.yaml", f"{GRPO}gradient_accumulation_steps: 2\nsteps_per_generation: 3\n"),),
        None,
    ),
    "trl/counts-completions": ((("g.yaml", GRPO),), None),
    "trl/defaults": ((("g.yaml", GRPO),), None),
    "trl/sequence-parallel": (
        (("g.py", "args = GRPOConfig(parallelism_config=ParallelismConfig(dp_shard_size=4, cp_size=2))\n"),),
        8,
    ),
    "trl/tensor-parallel-counted": (
        (("g.py", "args = GRPOConfig(parallelism_config=ParallelismConfig(dp_shard_size=4, tp_size=2))\n"),),
        8,
    ),
    # TRL SFT: the shapes of /work/research/trl/fixtures, run through trl 1.16.0's CLI, accelerate and SFTTrainer
    "trl/sft-padding-free-without-packing": ((("sft.yaml", f"{SFT}padding_free: true\n"),), 8),
    "trl/sft-env-not-a-mapping": ((("sft.yaml", f"{SFT}env: WANDB_MODE=offline\n"),), 8),
    "trl/sft-accelerate-config-unknown": ((("sft.yaml", f"{SFT}accelerate_config: zero4\n"),), None),
    "trl/sft-accelerate-config": ((("sft.yaml", f"{SFT}accelerate_config: zero3\nmax_length: 2048\n"),), None),
    "trl/sft-packing": ((("sft.yaml", f"{SFT}packing: true\nmax_length: 4096\n"),), 8),
    "trl/sft-max-length-default": ((("sft.yaml", SFT),), 8),
    "trl/sft-max-seq-length": ((("sft.yaml", f"{SFT}dataset_text_field: text\nmax_seq_length: 4096\n"),), 8),
    # TRL RLOO: trl 0.19.1's RLOOTrainer lines, trl 0.22.2's RLOOConfig run (/work/scratch/rl/oracle/rloo_*.py)
    "trl/rloo-before-0-22": ((("r.yaml", RLOO_OLD), ("requirements.txt", "trl==0.19.1\n")), 8),
    "trl/rloo-counted-before-0-22": ((("r.yaml", RLOO_OLD),), 8),
    "trl/rloo-local-batch-multiple": (
        (("r.yaml", RLOO_OLD.replace("rloo_k: 4", "rloo_k: 3")), ("requirements.txt", "trl==0.19.1\n")),
        2,
    ),
    "trl/rloo-old-name-removed": ((("r.yaml", "rloo_k: 4\nper_device_train_batch_size: 4\n"),), 8),
    # ALST/Ulysses: DeepSpeed 0.19.8's ulysses_sp.py:666-671, TRL 1.16.0's sft_trainer.py:1174-1187
    "trl/sft-ulysses-position-ids": ((("sft.yaml", SFT), ("alst.yaml", ALST)), None),
    "trl/sft-ulysses-loss": ((("sft.yaml", f"{SFT}packing: true\nloss_type: dft\n"), ("alst.yaml", ALST)), None),
    "trl/sft-unknown-keys-in-script": (
        (
            ("run.sh", "accelerate launch --num_processes 8 trl/scripts/sft.py --config sft.yaml"),
            ("sft.yaml", f"{SFT}accelerate_config: zero3\n"),
        ),
        None,
    ),
    "trl/sft-unknown-batch-key": ((("sft.yaml", SFT.replace("per_device_train", "per_device")),), 8),
    # verl: the shapes of /work/research/verl/fixtures, numbers by verl's lifted lines
    "verl/micro-batch-missing": ((("run.sh", VERL),), None),
    "verl/micro-batch-both": ((("run.sh", f"{VERL_MICRO} actor_rollout_ref.actor.ppo_micro_batch_size=16"),), None),
    "verl/model-parallel-divisible": (
        (("run.sh", f"{VERL_MICRO} actor_rollout_ref.actor.megatron.tensor_model_parallel_size=3"),),
        None,
    ),
    "verl/real-train-batch-divisible": ((("run.sh", VERL_MICRO.replace("n=4", "n=5").replace("=64", "=50")),), None),
    "verl/train-batch-below-mini-batch": ((("run.sh", VERL_MICRO.replace("=64", "=8")),), None),
    "verl/global-micro-batch-divisible": (
        (("run.sh", f"{VERL} actor_rollout_ref.actor.ppo_micro_batch_size=12"),),
        None,
    ),
    "verl/global-micro-batch-too-small": (
        (("run.sh", f"{VERL} actor_rollout_ref.actor.ppo_micro_batch_size=4"),),
        None,
    ),
    "verl/sequence-parallel-remove-padding": (
        (("run.sh", f"{VERL_MICRO} actor_rollout_ref.actor.ulysses_sequence_parallel_size=2"),),
        None,
    ),
    "verl/sequence-parallel-above-gpus": (
        (
            (
                "run.sh",
                VERL_MICRO.replace("per_node=8", "per_node=1")
                + " actor_rollout_ref.actor.ulysses_sequence_parallel_size=2",
            ),
        ),
        None,
    ),
    "verl/mini-batch-zero": ((("run.sh", f"{VERL_DYNAMIC} trainer.nnodes=16"),), None),
    "verl/mini-batch-micro-batch-divisible": (
        (("run.sh", VERL_MICRO.replace("size_per_gpu=2", "size_per_gpu=3")),),
        None,
    ),
    "verl/equal-chunks": ((("run.sh", f"{VERL_DYNAMIC} trainer.n_gpus_per_node=6"),), None),
    "verl/token-bound-below-length": (
        (("run.sh", f"{VERL_DYNAMIC} actor_rollout_ref.actor.ppo_max_token_len_per_gpu=512"),),
        None,
    ),
    "verl/mini-batch-floored": ((("run.sh", VERL_SIX),), None),
    "verl/short-last-mini-batch": ((("run.sh", VERL_SIX),), None),
    "verl/dynamic-batch": ((("run.sh", VERL_DYNAMIC),), None),
    "verl/defaults": ((("run.sh", VERL_MICRO),), None),
    # verl 0.1 (pinned): mini 16 // 8 · 4 = 8, micro (64 default) // 8 · 4 = 32 (v0.1 fsdp_workers.py:97-101)
    "verl/normalises-first-before-0-2": ((("run.sh", VERL_OLD), ("requirements.txt", "verl==0.1\n")), None),
    "verl/normalised-before-0-2": ((("run.sh", f"{VERL} actor_rollout_ref.actor.ppo_micro_batch_size=16"),), None),
    "verl/mini-batch-zero-before-0-2": (
        (("run.sh", f"{VERL_OLD} trainer.nnodes=4"), ("requirements.txt", "verl==0.1\n")),
        None,
    ),
    "verl/mini-batch-micro-batch-divisible-before-0-2": (
        (("run.sh", f"{VERL_OLD} actor_rollout_ref.actor.ppo_micro_batch_size=24"), ("requirements.txt", "verl==0.1")),
        None,
    ),
    # verl 0.2 (no train >= mini check yet): mini 16 · 4 // 8 = 8 per GPU beyond the 8 · 4 / 8 = 4 a GPU has
    "verl/mini-batch-above-rollout": (
        (
            ("run.sh", VERL_MICRO.replace("train_batch_size=64", "train_batch_size=8")),
            ("requirements.txt", "verl==0.2\n"),
        ),
        None,
    ),
    "verl/critic-micro-batch-missing": ((("run.sh", VERL_PPO),), None),
    "verl/critic-micro-batch-both": (
        (("run.sh", f"{VERL_PPO} critic.ppo_micro_batch_size=16 critic.ppo_micro_batch_size_per_gpu=2"),),
        None,
    ),
    "verl/critic-global-micro-batch-refused": ((("run.sh", f"{VERL_PPO} critic.ppo_micro_batch_size=16"),), None),
    "verl/critic-train-batch-below-mini-batch": (
        (("run.sh", f"{VERL_PPO} critic.ppo_micro_batch_size_per_gpu=2 critic.ppo_mini_batch_size=128"),),
        None,
    ),
    "verl/critic-mini-batch-micro-batch-divisible": (
        (("run.sh", f"{VERL_PPO} critic.ppo_micro_batch_size_per_gpu=3"),),
        None,
    ),
    "verl/critic-batch": ((("run.sh", f"{VERL_PPO} critic.ppo_micro_batch_size_per_gpu=2"),), None),
    "verl/dapo-generation-rounds": (
        (("run.sh", f"{VERL_DAPO} data.gen_batch_size=32 algorithm.filter_groups.enable=True"),),
        None,
    ),
    "verl/gen-batch-without-filter": ((("run.sh", f"{VERL_DAPO} data.gen_batch_size=128"),), None),
    "verl/fewer-gpus-than-written": ((("run.sh", VERL_MICRO),), 4),
    "verl/more-gpus-than-written": ((("run.sh", VERL_MICRO),), 16),
    # OpenRLHF: the shapes of /work/research/openrlhf/fixtures, numbers by its CLI run and DeepSpeed lines lifted
    "openrlhf/flag-spellings-mixed": ((("run.sh", f"{ORLHF} --n_samples_per_prompt 8"),), None),
    "openrlhf/sample-batches-below-processes": (
        (("run.sh", ORLHF.replace("batch_size 128 ", "batch_size 4 ") + " --train.micro_batch_size 1"),),
        None,
    ),
    "openrlhf/estimator-needs-samples": ((("run.sh", f"{ORLHF} --algo.advantage.estimator group_norm"),), None),
    "openrlhf/deepspeed-batch-assertion": ((("run.sh", f"{ORLHF} --train.micro_batch_size 3"),), None),
    "openrlhf/steps-floored": ((("run.sh", ORLHF_FLOORED),), None),
    "openrlhf/drop-last": ((("run.sh", ORLHF_FLOORED),), None),
    "openrlhf/dynamic-batch": ((("run.sh", f"{ORLHF} --train.dynamic_batch_enable --vllm.num_engines 2"),), None),
    # train_ppo_ray.py HEAD 655-661: packing asserts vLLM engines; an unquoted value with a space is two words
    "openrlhf/packing": ((("run.sh", f"{ORLHF} --ds.packing_samples --vllm.num_engines 2"),), None),
    "openrlhf/model-parallel-above-gpus": (
        (("run.sh", f"{ORLHF} --ds.ring_attn_size 4 --ds.tensor_parallel_size 4 --vllm.num_engines 2"),),
        None,
    ),
    "openrlhf/packing-needs-vllm": ((("run.sh", f"{ORLHF} --ds.packing_samples"),), None),
    "openrlhf/unrecognized-arguments": (
        (("run.sh", f'NAME="ckpt name"\n{ORLHF} --ckpt.save_path /ckpt/$NAME --ds.zero_stage 3'),),
        None,
    ),
    "openrlhf/defaults": ((("run.sh", ORLHF),), None),
    # train_ppo_ray.py HEAD 694-698
    "openrlhf/generate-batch-without-async": ((("run.sh", f"{ORLHF} --rollout.vllm_generate_batch_size 256"),), None),
    "verl/sequence-parallel-new-key": (
        (("run.sh", f"{VERL_MICRO} actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size=2"),),
        None,
    ),
    "olmo_core/microbatch-multiple-of-length": (olmo_core(micro="12_000"), 8),
    "olmo_core/degree-divides-world": (olmo_core(extra=f", {DP_CONFIG.format('fsdp')}, {TP_CONFIG.format(3)}"), 8),
    "olmo_core/data-parallel-required": (olmo_core(extra=f", {TP_CONFIG.format(2)}"), 8),
    "olmo_core/expert-with-tensor-parallel": (
        olmo_core(extra=f", {DP_CONFIG.format('hsdp')}, {TP_CONFIG.format(2)}, {EP_CONFIG}"),
        8,
    ),
    "olmo_core/expert-without-hsdp": (olmo_core(extra=f", {DP_CONFIG.format('fsdp')}, {EP_CONFIG}"), 8),
    "olmo_core/hsdp-degree": (
        olmo_core(extra=", dp_config=TransformerDataParallelConfig(name=DataParallelType.hsdp, shard_degree=64)"),
        8,
    ),
    "olmo_core/rank-batch-multiple-of-length": (olmo_core(gbs="256 * S"), 512),
    "olmo_core/global-batch-divisible": (olmo_core(gbs="512 * S", micro="16 * S"), 64),
    "olmo_core/global-batch-in-tokens": (olmo_core(gbs="1024"), 8),
    "olmo_core/changed-at-run-time": (olmo_core(tail="if big:\n    module.rank_microbatch_size //= 2\n"), 8),
    "olmo_core/changed-at-run-time-refused": (olmo_core(tail="if b200:\n    module.rank_microbatch_size *= 2\n"), 8),
    "olmo_core/batch-size-schedule-invalid": (olmo_core(tail=SCHEDULE_CALL.format(24)), 8),
    "olmo_core/batch-size-schedule": (olmo_core(tail=SCHEDULE_CALL.format(32)), 8),
    "megatron_bridge/world-size-divisible": (bridge("model.tensor_model_parallel_size = 3"), 8),
    "megatron_bridge/eval-batch-divisible": (bridge(*GBS_100), 16),
    "megatron_bridge/global-batch-size-divisible": (bridge(*GBS_100, "validation.eval_global_batch_size = 32"), 16),
    "megatron_bridge/batch-size-decreased": (
        bridge(*GBS_100, "validation.eval_global_batch_size = 32", "train.decrease_batch_size_if_needed = True"),
        16,
    ),
    "megatron_bridge/context-parallel-sequence-length": (
        bridge("model.context_parallel_size = 4", "dataset.seq_length = 65530"),
        8,
    ),
    "megatron_bridge/packed-micro-batch": (bridge("train.micro_batch_size = 2", base="_sft_common"), 8),
    "megatron_bridge/in-batch-packing-micro-batch": (bridge("train.micro_batch_size = 1", base="_sft_common_vlm"), 8),
    "megatron_bridge/packed-sequences": (bridge("train.global_batch_size = 64", base="_sft_common"), 8),
    "megatron_bridge/inherited-global-batch-size": (bridge("train.micro_batch_size = 1"), 8),
    "megatron_bridge/world-from-recipe-name": (
        bridge("train.global_batch_size = 64", name="x_pretrain_8gpu_config"),
        None,
    ),
    "megatron_bridge/first-recipe-of-file": (
        (("recipes.py", "\n\n".join(bridge(name=name)[0][1] for name in ("a_pretrain_config", "b_sft_config"))),),
        8,
    ),
    "megatron_bridge/rampup": (
        bridge("train.global_batch_size = 1024", "train.rampup_batch_size = [64, 64, 100000]"),
        16,
    ),
    "megatron_bridge/rampup-divisible": (
        bridge("train.global_batch_size = 96", "train.rampup_batch_size = [48, 48, 1000]"),
        16,
    ),
    "megatron_bridge/nemo2-num-nodes": ((("llama3_70b.py", NEMO2),), None),
    "megatron_bridge/interleaved-needs-pipeline": (
        (
            (
                "p.py",
                NEMO2_USE.format(model="llama3_70b", change="recipe.trainer.strategy.pipeline_model_parallel_size = 1"),
            ),
        ),
        None,
    ),
    "megatron_bridge/nemo2-recipe-defaults-unknown": (
        (("p.py", NEMO2_USE.format(model="deepseek_v3", change="recipe.data.global_batch_size = 64")),),
        None,
    ),
    "levanter/batch-divisible": ((("l.yaml", f"{LEVANTER}  train_batch_size: 100\n"),), 8),
    "levanter/batch-below-data-axis": ((("l.yaml", f"{LEVANTER}  train_batch_size: 4\n"),), 8),
    "levanter/phase-divisible": ((("l.yaml", f"{LEVANTER}  per_device_parallelism: 8\n{LEVANTER_SCHEDULE}"),), 8),
    "levanter/batch-or-per-device": ((("l.yaml", f"{LEVANTER}  train_batch_size: -1\n"),), 8),
    "levanter/model-axis-divisible": ((("l.yaml", f"{LEVANTER}  model_axis_size: 3\n"),), 8),
    "levanter/mesh-axes": ((("l.yaml", f"{LEVANTER}  mesh:\n    axes: {{model: 3}}\n"),), 8),
    "levanter/phase-divisible-by-data-axis": ((("l.yaml", f"{LEVANTER}{LEVANTER_SCHEDULE}"),), 8),
    "levanter/padded-with-zeros": (
        (("l.yaml", f"{LEVANTER}{LEVANTER_SCHEDULE}  allow_nondivisible_batch_size: true\n"),),
        8,
    ),
    "levanter/batch-from-per-device": (
        (("l.yaml", f"{LEVANTER}  train_batch_size: -1\n  per_device_parallelism: 4\n"),),
        8,
    ),
    "levanter/default-batch-size": ((("l.yaml", f"{LEVANTER}  num_train_steps: 100\n"),), 8),
    "levanter/schedule-without-microbatching": (
        (("l.yaml", f"{LEVANTER}{LEVANTER_SCHEDULE.replace('60', '64')}"),),
        8,
    ),
    "nanotron/world-size": ((("n.yaml", NANOTRON),), 16),
    "nanotron/1f1b-microbatches": (
        (("n.yaml", NANOTRON.replace("dp: 4\n  pp: 1\n  tp: 2", "dp: 2\n  pp: 4\n  tp: 1\n  pp_engine: 1f1b")),),
        None,
    ),
    "nanotron/heads-divisible-by-tp": ((("n.yaml", NANOTRON + NANOTRON_HEADS.format(15, 5)),), None),
    "nanotron/kv-heads-below-tp": ((("n.yaml", NANOTRON + NANOTRON_HEADS.format(16, 1)),), None),
    "nanotron/unknown-key": ((("n.yaml", f"{NANOTRON}  global_batch_size: 256\n"),), None),
    "nanotron/missing-key": ((("n.yaml", NANOTRON.replace("  micro_batch_size: 3\n", "")),), None),
    "nanotron/expert-parallel": ((("n.yaml", NANOTRON.replace("tp: 2", "tp: 2\n  expert_parallel_size: 2")),), None),
    "nanotron/context-parallel": (
        (("n.yaml", NANOTRON.replace("tp: 2", "tp: 2\n  context_parallel_size: 2")),),
        None,
    ),
}
#: A decimal point as English writes it (German groups thousands with a point: 1.008); code in backticks is exempt.
ENGLISH_DECIMAL = re.compile(r"\d\.(?!\d{3}(?!\d))\d")
VERSION = re.compile(r"(?<![\d.])\d+\.\d+\.\d+(?![\d.])")


#: The GPU a sample is held against (``--gpu``), where its rule needs one.
SAMPLE_GPUS = {"memory/micro-batch-does-not-fit": "h100", "memory/does-not-fit": "a100-40"}


def sample(code: str) -> Check:
    given, world = SAMPLES[code]
    sources = [Source(name, text) for name, text in given]
    return check_config(sources, World(world, "gpus") if world else None, gpu=SAMPLE_GPUS.get(code))


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_framework_has_a_german_name() -> None:
    """Each registered framework is named in headings, sentences and „nach den Regeln …“."""
    assert {f.id for f in all_frameworks()} <= set(texts.FRAMEWORKS)


@pytest.mark.parametrize("rule", rules(), ids=lambda rule: rule.code)
def test_template_says_exactly_what_the_rule_provides(rule: Any) -> None:
    """One German row per rule; its placeholders are the fields of the rule's typed context, no more, no fewer."""
    assert placeholders(texts.FINDINGS[rule.code]) == set(context_fields(rule.context))


def test_every_rule_has_a_sample_and_no_row_is_orphaned() -> None:
    """Rules, samples and German rows list the same codes."""
    codes = {rule.code for rule in rules()}
    assert set(SAMPLES) == codes
    assert set(texts.FINDINGS) == codes


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_rule_is_triggered_and_reads_well(code: str) -> None:
    """The sample triggers the rule; its text, the whole answer and its formulas hold no gap or English number."""
    check = sample(code)
    [finding] = [f for f in check.findings if f.code == code]
    text = finding_text(check, finding)
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    # prose: what is not quoted as code – in Slack's layout, where a value read stands as the file writes it (0.25);
    # a release (``0.28.0``) is no decimal
    slack = all_text(message(check_answer(check, Visibility.IN_CHANNEL).document))
    prose = VERSION.sub("", re.sub(r"`[^`]*`", "", slack))
    for bad in ("None", "…", "{", "}"):
        assert bad not in re.sub(r"`[^`]*`", "", text), text
    own = [f.message.replace("\n", " ").replace("`", "'") for f in check.findings if f.message]
    unquoted = functools.reduce(lambda rest, quote: rest.replace(quote, ""), own, shown)
    assert "None" not in unquoted  # TRL's own None
    # the framework's own message is quoted as code, as it writes it (TRL's "inexact division: 16 / 3 = 5.333…")
    assert not ENGLISH_DECIMAL.search(prose), prose
    assert all(formula(step) for step in check.steps)
    if check.refused:
        assert check.global_batch is None


def test_a_refusal_leaves_no_global_batch_and_heads_the_answer() -> None:
    """Wherever a framework refuses to start, the answer says so in its heading and the JSON has no batch."""
    check = sample("megatron/expert-parallel-divisible")
    assert check.global_batch is None
    document = check_answer(check, Visibility.IN_CHANNEL).document
    assert document.title == "Megatron-LM: So startet dieser Lauf nicht"


def test_a_silent_change_names_both_numbers() -> None:
    """OLMo's floor: the heading says what trains and what the config asked for; the fix is YAML."""
    check = sample("olmo/floored")
    document = check_answer(check, Visibility.IN_CHANNEL).document
    assert document.title == "OLMo: trainiert mit B = 1.008 statt 1.024"
    [finding] = [f for f in check.findings if f.code == "olmo/floored"]
    assert "`global_train_batch_size: 1008` oder `global_train_batch_size: 1032`" in finding_text(check, finding)


@pytest.mark.parametrize(
    ("code", "fix"),
    [
        ("megatron/global-batch-size-divisible", "`--global-batch-size 8` oder `--global-batch-size 16`"),
        ("deepspeed/batch-assertion", '`"gradient_accumulation_steps": 8`'),
        ("nemo/global-batch-size-divisible", "`global_batch_size: 96` oder `global_batch_size: 112` (unter `model`)"),
        (
            "nanogpt/accumulation-divisible",
            "`gradient_accumulation_steps = 39` oder `gradient_accumulation_steps = 42`",
        ),
        ("megatron/world-size-divisible", "Passend wären 16 GPUs."),
        # DeepSpeed 0.19.8 run here: 10 GPUs / SP 4 gives world_size 2.5 and train_batch_size 5.0 (no refusal, no
        # sensible batch); 8 or 12 GPUs give whole numbers
        ("deepspeed/sequence-parallel-world-size", "Passend wären 8 oder 12 GPUs."),
    ],
)
def test_fixes_are_written_in_the_configs_own_syntax(code: str, fix: str) -> None:
    """A fix is the setting as the config writes it, without German thousands separators."""
    check = sample(code)
    [finding] = [f for f in check.findings if f.code == code]
    assert fix in finding_text(check, finding)


@pytest.mark.parametrize("framework", all_frameworks(), ids=lambda framework: framework.id)
def test_each_check_fits_on_a_screen(framework: Any) -> None:
    """Every framework's ``check()`` reads, derives and finishes in at most 40 lines."""
    import inspect

    assert len(inspect.getsourcelines(framework.check)[0]) <= 40


BRANCHED = """#!/bin/bash
if [ "$1" = big ]; then
  GBS=256
else
  GBS=128
fi
torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1 --global-batch-size $GBS
"""


@pytest.mark.parametrize(
    ("script", "code"),
    [
        (BRANCHED, "script/branches-differ"),
        (BRANCHED.replace("GBS=128", "GBS=256"), "script/branches-agree"),
        (BRANCHED.replace("GBS=128", "GBS=100"), "script/branch-refused"),
    ],
)
def test_a_branch_only_the_start_decides_is_checked_both_ways(script: str, code: str) -> None:
    """`if [ "$1" = big ]`: never one branch silently; both are checked and the answer says how they compare."""
    check = check_config([Source("run.sh", script)])
    [finding] = [f for f in check.findings if f.code.startswith("script/")]
    assert finding.code == code
    text = finding_text(check, finding)
    assert "Ab Zeile 2 von run.sh verzweigt das Skript je nach `$1`" in text
    said = {
        "script/branches-differ": "trainiert der Lauf mit B = 128 oder B = 256.",
        "script/branches-agree": "beide Varianten ergeben dieselbe Batch-Größe.",
        "script/branch-refused": "Eine der beiden Varianten lässt sich nicht prüfen oder nicht starten",
    }
    assert said[code] in text


def test_a_quoted_message_ends_with_exactly_one_full_stop() -> None:
    """DeepSpeed's message has no full stop of its own: one follows the quote; a message with one gets none more."""
    check = sample("deepspeed/batch-assertion")
    [assertion] = [f for f in check.findings if f.code == "deepspeed/batch-assertion"]
    assert "256 != 4 * 1 * 8`. Passend wäre:" in finding_text(check, assertion)
    ramp = sample("megatron/rampup-start")
    [start] = [f for f in ramp.findings if f.code == "megatron/rampup-start"]
    assert finding_text(ramp, start).endswith("got 0.`")


def test_a_context_record_behaves_like_a_frozen_dataclass() -> None:
    """@context: positional or keyword construction, defaults, equality and hash by value, frozen, a readable repr."""
    from dataclasses import FrozenInstanceError

    from effbatch.core.configs.base import context

    @context
    class Pair:
        left: int
        right: str = "x"

    assert Pair(1) == Pair(left=1, right="x") != Pair(1, "y")
    assert hash(Pair(1)) == hash(Pair(1))
    assert (
        repr(Pair(2, "z")) == "test_a_context_record_behaves_like_a_frozen_dataclass.<locals>.Pair(left=2, right='z')"
    )
    assert context_fields(Pair) == ("left", "right")
    with pytest.raises(FrozenInstanceError):
        Pair(1).left = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="misses left"):
        Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes left, right"):
        Pair(1, "a", 3)  # type: ignore[call-arg]
