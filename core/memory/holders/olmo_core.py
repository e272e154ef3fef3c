"""OLMo-core's ``TransformerTrainModule``: FSDP2 (HSDP on one node is FSDP over it) with the output layer and its loss
compiled together (read at allenai/OLMo-core@7e58d128).

- The states as ``core.memory.holders.torchtitan`` counts FSDP2: ``apply_fsdp`` (src/olmo_core/nn/transformer/
  model.py lines 588-660) ``fully_shard``s each block and the LM head with ``MixedPrecisionPolicy(param_dtype,
  reduce_dtype)`` (the scripts: bf16 and fp32); gradient accumulation reduce-scatters every micro-batch (train_module/
  transformer.py lines 838-853: HSDP only delays the all-reduce across replicas).
- No recomputation unless an ``ac_config`` is given (train_module/transformer.py ``parallelize_model``).
- With ``compile_model=True`` (train_module/transformer.py lines 301-306) ``apply_compile`` compiles every block and
  ``self.lm_head.compile(fullgraph=False)`` (model.py lines 571-586): the LM head's ``w_out`` and its loss, the
  default ``cross_entropy_loss`` (nn/lm_head.py line 97; nn/functional/cross_entropy_loss.py lines 35 and 41: the fp32
  upcast, the log-softmax and the z-loss's logsumexp) are one compiled graph, so as with torchtitan's compiled loss
  Inductor keeps of the fp32 copy and its softmax nothing – the bf16 logits and their bf16 gradient: 4 bytes a logit.
  What the compiled blocks save is still counted as the eager modules' (Inductor's recomputation not read).
"""

from __future__ import annotations

from effbatch.core.memory.holders.base import Kernels, Policy
from effbatch.core.memory.setup import Recompute

POLICY = Policy(
    kernels=Kernels.EAGER,
    recompute=Recompute.NONE,
    vocab_parallel_loss=True,  # model.py apply_tp: the LM head with loss_parallel under TP
    compiled_logits_bytes=4.0,
    grads_freed=True,
)
