"""W3's training step in PyTorch, eager and torch.compile, timed like bench/w3_bench.cu (CUDA
events, median after warm-up, the same shapes, TF32 allowed): layernorm, Linear(C, 4C), GELU
(tanh form), Linear(4C, C), residual, layernorm, Linear(C, V) without bias, softmax
cross-entropy (mean), SGD.

  python3 bench/w3_torch.py [N C V]
"""
import sys

import torch

from timing import median_ms, training_step

N, C, V = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (8192, 768, 50304)
torch.backends.cuda.matmul.allow_tf32 = True
torch.manual_seed(7)
x = torch.randn(N, C, device="cuda")
y = torch.randint(0, V, (N,), device="cuda")


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(C)
        self.fc = torch.nn.Linear(C, 4 * C)
        self.proj = torch.nn.Linear(4 * C, C)
        self.ln2 = torch.nn.LayerNorm(C)
        self.head = torch.nn.Linear(C, V, bias=False)

    def forward(self, x):
        r = x + self.proj(torch.nn.functional.gelu(self.fc(self.ln1(x)), approximate="tanh"))
        return self.head(self.ln2(r))


model = Block().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.05)

torch.cuda.reset_peak_memory_stats()
print(f"W3 N={N} C={C} V={V} PyTorch eager: {median_ms(training_step(model, opt, x, y)):.4f} ms, "
      f"peak {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB")
compiled = torch.compile(model)
torch.cuda.reset_peak_memory_stats()
print(f"W3 N={N} C={C} V={V} torch.compile: {median_ms(training_step(compiled, opt, x, y), warmup=10):.4f} ms, "
      f"peak {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB")
