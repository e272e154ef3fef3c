"""A character-level training script with one loop (shaped like the makemore / "GPT from scratch" lecture
scripts): get_batch draws (batch_size,) windows as nanoGPT does, but every step is an optimizer step – no
accumulation loop, no world size – and it is no framework's config."""
import torch

batch_size = 32
block_size = 8
max_iters = 3000
data = torch.randint(0, 65, (10000,))
model = torch.nn.Embedding(65, 65)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i : i + block_size] for i in ix])
    y = torch.stack([data[i + 1 : i + block_size + 1] for i in ix])
    return x, y


for step in range(max_iters):
    xb, yb = get_batch()
    logits = model(xb)
    loss = torch.nn.functional.cross_entropy(logits.view(-1, 65), yb.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
