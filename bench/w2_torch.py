"""W2's training step in PyTorch, eager and torch.compile, timed like bench/w2_bench.cu (CUDA
events, median after warm-up, the same shapes, TF32 allowed): Linear-ReLU-Linear-ReLU-Linear,
softmax cross-entropy (mean), SGD.

  python3 bench/w2_torch.py large|small
"""
import sys

import torch

from timing import median_ms, training_step

small = len(sys.argv) > 1 and sys.argv[1] == "small"
B, D, H, C = (2048, 256, 512, 16) if small else (8192, 1024, 4096, 1024)
torch.backends.cuda.matmul.allow_tf32 = True
torch.manual_seed(7)
x = torch.randn(B, D, device="cuda")
y = torch.randint(0, C, (B,), device="cuda")
model = torch.nn.Sequential(torch.nn.Linear(D, H), torch.nn.ReLU(), torch.nn.Linear(H, H), torch.nn.ReLU(),
                            torch.nn.Linear(H, C)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)

name = "small" if small else "large"
torch.cuda.reset_peak_memory_stats()
print(f"W2-{name} PyTorch eager: {median_ms(training_step(model, opt, x, y)):.4f} ms, "
      f"peak {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB")
compiled = torch.compile(model)
torch.cuda.reset_peak_memory_stats()
print(f"W2-{name} torch.compile: {median_ms(training_step(compiled, opt, x, y), warmup=10):.4f} ms, "
      f"peak {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB")
