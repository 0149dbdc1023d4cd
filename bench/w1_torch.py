"""W1's training step in PyTorch, eager and torch.compile, timed like bench/w1_bench.cu (CUDA
events, median after warm-up, the same n and data distribution), with its gradient checked
against a float64 reference.

  python3 bench/w1_torch.py [log2 n]
"""
import sys

import torch

from timing import median_ms

log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 26
n = 1 << log2n
gen = torch.Generator(device="cuda").manual_seed(7)
x = torch.randn(n, device="cuda", generator=gen)
y = torch.tanh(0.8 * x - 0.3) + 0.1 * torch.randn(n, device="cuda", generator=gen)
a = torch.tensor(0.5, device="cuda", requires_grad=True)
b = torch.tensor(0.1, device="cuda", requires_grad=True)


def loss_fn(a, b, x, y):
    return ((torch.tanh(a * x + b) - y) ** 2).mean()


def make_step(f):
    def step():
        loss = f(a, b, x, y)
        loss.backward()
        with torch.no_grad():
            a.sub_(0.1 * a.grad)
            b.sub_(0.1 * b.grad)
            a.grad = None
            b.grad = None
        return loss
    return step


# The gradient against float64 before timing.
with torch.no_grad():
    h = torch.tanh(a.double() * x.double() + b.double())
    g = 2 * (h - y.double()) / n * (1 - h * h)
    ref = (float((g * x.double()).sum()), float(g.sum()))
loss_fn(a, b, x, y).backward()
print(f"PyTorch {torch.__version__}: gradient rel. error vs float64: a {abs(a.grad.item() - ref[0]) / abs(ref[0]):.2e}, "
      f"b {abs(b.grad.item() - ref[1]) / abs(ref[1]):.2e}")
a.grad = b.grad = None
copy = torch.empty_like(x)
floor = median_ms(lambda: copy.copy_(x))
eager = median_ms(make_step(loss_fn))
compiled = median_ms(make_step(torch.compile(loss_fn)))
print(f"floor (device copy of x, 8n bytes): {floor:.4f} ms")
print(f"training step, PyTorch eager: {eager:.4f} ms ({eager / floor:.1f} x floor)")
print(f"training step, torch.compile: {compiled:.4f} ms ({compiled / floor:.1f} x floor)")
