"""What a step's communication costs on one GPU, after what the layout overlaps with compute.

Ranks are laid out as Megatron-Core does (``tp-cp-ep-dp-pp``, TP innermost): a group whose members all sit on
one node talks over NVLink; one that spans nodes over the network, each of a node's members through its own
NIC (a rail), so k members a node move k times one GPU's network bandwidth. Collectives are NCCL's rings: an
all-reduce moves 2 (n − 1)/n of the bytes, a reduce-scatter or all-gather (n − 1)/n (Patarasuk & Yuan 2009;
NCCL's ``PERFORMANCE.md``: bus bandwidth), at ``COMM_EFFICIENCY`` of the link.

- Data parallel, once an optimizer step (accumulation defers it: DDP's ``no_sync``, Megatron's gradient buffers):
  plain DDP all-reduces FP32 gradients (4 bytes: Megatron's ``main_grad``, torchtitan's and Hugging Face's
  reduce dtype); ZeRO-1/2 and Megatron's distributed optimizer reduce-scatter them and all-gather the BF16
  weights after the step. Only the last micro-batch's backward hides it (buckets launch as gradients are
  ready), the last bucket never – one layer's share. ZeRO-3/FSDP gathers the weights forward and backward and
  reduce-scatters the gradients every micro-batch, each hidden behind that micro-batch's compute. Hidden is not
  free: each NCCL channel runs as one thread block on an SM of its own (NCCL's documentation of
  ``NCCL_MAX_NCHANNELS``/``NCCL_MIN_NCHANNELS``), up to ``NCCL_CHANNELS`` on NVLink, so while it runs the
  matrix products have that many SMs fewer: the hidden seconds cost channels / SMs of compute. DeepSpeed's ZeRO
  moves other bytes at other times (all-reduced buckets, nothing overlapped below ZeRO-3): ``core.memory.zero_step``.
- Tensor parallel: four collectives a layer and micro-batch on b · s · h activations (two forward, two
  backward: all-reduce, or all-gather and reduce-scatter with sequence parallelism, the same bytes; Korthikanti
  et al. 2022, §4.2.2), six with full recomputation; not overlapped (frameworks' default).
- Context parallel: the ring passes each rank's K and V on (CP − 1 times forward; K, V and their gradients
  backward), hidden behind the attention it feeds (Megatron-Core's ring attention overlaps them).
- Expert parallel: four all-to-alls an MoE layer and micro-batch (dispatch and combine, forward and backward)
  of b · s · top-k · h activations, not overlapped.
"""

from __future__ import annotations

from dataclasses import dataclass

from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.kernels import Kernels
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Offload, Recompute, Setup

#: The share of a link's bandwidth NCCL's large collectives reach (nccl-tests bus bandwidth on DGX H100:
#: about 360 of 450 GB/s over NVLink, about 45 of 50 GB/s a 400 Gb/s rail): 80 %.
COMM_EFFICIENCY = 0.8
GRAD_BYTES, WEIGHT_BYTES, ACTIVATION_BYTES = 4, 2, 2
#: Adam on the GPU reads FP32 weights, gradients, both moments (16 bytes) and writes weights, moments and the
#: BF16 copy (14): a memory-bound pass, 32 bytes a parameter with the gradient norm (DeepSpeed's ZeRO step makes more
#: passes: ``zero_step.step_bytes``).
OPTIMIZER_BYTES = 32
#: ZeRO-Offload's CPU Adam (Ren et al. 2021, §5: about a billion parameters a second on a server's cores),
#: shared by the 8 GPUs of a node, and the PCIe Gen5 link the gradients and weights cross (64 GB/s a way, half
#: reached).
CPU_ADAM_PER_GPU = 1e9 / 8
#: The channels (one SM each) NCCL's rings take on an NVLink/NVSwitch node: its default maximum, 32.
NCCL_CHANNELS = 32
PCIE = 32e9


@dataclass(frozen=True)
class Links:
    """The bandwidths a GPU's collectives use, in bytes/s, reached share included."""

    nvlink: float
    net: float
    gpus_per_node: int
    contention: float = 0.0  # the share of SMs NCCL's channels take from compute while they run

    def group(self, inner: int, size: int) -> float:
        """A group of ``size`` ranks ``inner`` apart: NVLink within a node, else k rails of the network."""
        if inner * size <= self.gpus_per_node:
            return self.nvlink
        members = max(1, self.gpus_per_node // inner)
        return min(self.nvlink, members * self.net)

    def spread(self, inner: int, size: int) -> float:
        """An all-to-all over such a group: the share of peers off the node crosses the network, the rest NVLink
        (the inverse of the time a byte takes)."""
        local = min(1.0, max(1, self.gpus_per_node // inner) / size)
        return 1 / ((1 - local) / self.net + local / self.nvlink)


def links(setup: Setup, gpu: GpuSpec) -> Links:
    net = (setup.net_gbps or gpu.net_gbps) * 1e9 / 8
    nvlink = gpu.nvlink or net
    contention = min(1.0, NCCL_CHANNELS / gpu.sms) if gpu.sms else 0.0
    return Links(nvlink * COMM_EFFICIENCY, (net or nvlink) * COMM_EFFICIENCY, setup.gpus_per_node, contention)


def local_params(model: ModelSpec | None, params: int, setup: Setup) -> tuple[float, float]:
    """Parameters one GPU holds before ZeRO: the dense ones over TP · PP, the routed experts over EP · PP."""
    if model is None:
        return params / (setup.tp * setup.pp), 0.0
    experts = model.moe_layers * model.expert_params_per_layer
    expert_split = setup.ep if setup.ep > 1 else setup.tp
    return (model.total_params - experts) / (setup.tp * setup.pp), experts / (expert_split * setup.pp)


def data_parallel(model: ModelSpec | None, params: int, setup: Setup, lk: Links, work: Kernels) -> float:
    """Exposed seconds of the gradient (and ZeRO's weight) traffic a step, and what its hidden part takes from
    compute (``Links.contention``)."""
    d = setup.data_parallel
    if d == 1:
        return 0.0
    dense, experts = local_params(model, params, setup)
    bandwidth = lk.group(setup.tp * setup.cp * setup.sp, d)
    micro_batches = setup.accumulation or 1
    micro = (work.compute + work.recompute) / micro_batches
    layers = max(1, (model.layers if model else 1) // setup.pp)
    ring = (d - 1) / d * (dense + experts) / bandwidth
    if setup.zero >= 3:
        return overlapped(ring * (2 * WEIGHT_BYTES + GRAD_BYTES), micro, micro_batches, layers, lk)
    if setup.zero or setup.distributed_optimizer:
        reduce, gather = ring * GRAD_BYTES, ring * WEIGHT_BYTES
        total = reduce + gather
        exposed = max(reduce - micro * 2 / 3, reduce / layers) + max(gather - micro / 3, gather / layers)
    else:
        total = 2 * ring * GRAD_BYTES
        exposed = max(total - micro * 2 / 3, total / layers)
    return exposed + (total - exposed) * lk.contention


def overlapped(per_micro: float, micro: float, micro_batches: int, layers: int, lk: Links) -> float:
    """ZeRO-3's and FSDP's traffic of ``per_micro`` seconds a micro-batch, each hidden behind that micro-batch's
    ``micro`` seconds of compute but one layer's share, the hidden part at ``Links.contention`` of its time."""
    total = micro_batches * per_micro
    exposed = micro_batches * max(per_micro - micro, per_micro / layers)
    return exposed + (total - exposed) * lk.contention


def tensor_parallel(model: ModelSpec | None, setup: Setup, lk: Links) -> float:
    """Seconds of TP's collectives a step: four a layer and micro-batch (six with full recomputation)."""
    t = setup.tp
    if t == 1 or model is None or not setup.seq_len:
        return 0.0
    tokens = setup.micro_batch * setup.seq_len / (setup.cp * setup.sp)
    collectives = 6 if setup.recompute is Recompute.FULL else 4
    per_layer = collectives * 2 * (t - 1) / t * tokens * model.hidden * ACTIVATION_BYTES / lk.group(1, t)
    return (setup.accumulation or 1) * model.layers / setup.pp * per_layer


def context_parallel(model: ModelSpec | None, setup: Setup, lk: Links, work: Kernels) -> float:
    """Seconds of ring attention's K/V exchange a step that the attention it feeds does not hide."""
    c = setup.cp
    if c == 1 or model is None or not setup.seq_len:
        return 0.0
    tokens = setup.micro_batch * setup.seq_len / c
    per_layer = 3 * (c - 1) * 2 * tokens * model.kv_dim * ACTIVATION_BYTES / lk.group(setup.tp, c)
    layers = (setup.accumulation or 1) * model.layers / setup.pp
    return layers * max(0.0, per_layer - work.attention / layers)


def expert_parallel(model: ModelSpec | None, setup: Setup, lk: Links) -> float:
    """Seconds of the MoE layers' all-to-alls a step (dispatch and combine, forward and backward)."""
    e = setup.ep
    if e == 1 or model is None or not model.moe or not setup.seq_len:
        return 0.0
    tokens = setup.micro_batch * setup.seq_len / (setup.cp * setup.sp)
    per_layer = 4 * (e - 1) / e * tokens * model.topk * model.hidden * ACTIVATION_BYTES
    seconds = per_layer / lk.spread(setup.tp * setup.cp, e)
    return (setup.accumulation or 1) * model.moe_layers / setup.pp * seconds


def optimizer(
    model: ModelSpec | None, params: int, setup: Setup, gpu: GpuSpec, per_param: float = OPTIMIZER_BYTES
) -> float:
    """Seconds of the optimizer step: Adam over the GPU's shard at memory speed (``per_param`` bytes a parameter),
    or on the CPU when offloaded."""
    dense, experts = local_params(model, params, setup)
    shard = dense + experts
    if setup.zero or setup.distributed_optimizer:
        shard /= setup.data_parallel
    if setup.offload is not Offload.NONE:
        return shard / CPU_ADAM_PER_GPU + shard * (GRAD_BYTES + WEIGHT_BYTES) / PCIE
    return shard * per_param / (gpu.hbm * 0.8) if gpu.hbm else 0.0
