"""What the PyTorch benchmarks share: the median time of a piece of work with CUDA events, after
warm-up, as bench/timing.h measures the generated code, and a training step."""
import torch


def median_ms(work, reps=50, warmup=5):
    for _ in range(warmup):
        work()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def training_step(forward, opt, x, y):
    """One step of softmax cross-entropy (mean) training: forward, loss, backward, update."""
    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(forward(x), y)
        loss.backward()
        opt.step()
        return loss
    return step
