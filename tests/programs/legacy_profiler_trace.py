#!/usr/bin/python3
"""Writes a PyTorch profiler trace in the legacy autograd profiler's JSON.

A PyTorch built without Kineto (Debian 12's python3-torch 1.13.1 is one:
torch.autograd.kineto_available() is False) still runs torch.profiler, but
export_chrome_trace then writes the autograd profiler's own format
(torch/autograd/profiler_util.py, EventList.export_chrome_trace): a bare JSON
array of "X" events with pid "CPU functions" and no "cat". damscope imports it
(docs/trace-format.md, "The legacy autograd profiler's JSON"); this program
made tests/data/legacy_autograd_cpu.json:

    /usr/bin/python3 tests/programs/legacy_profiler_trace.py tests/data/legacy_autograd_cpu.json

A small CPU training loop: an MLP trained with SGD on random data, read through
a DataLoader (num_workers=0) whose Dataset does real work in Python in
__getitem__, so every step opens with a visible data stall
("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"). torch.profiler
marks each step ProfilerStep#N itself (prof.step()), as it does with Kineto.
The default sizes keep the trace under 300 KB; the data is seeded, the
timings are not.
"""

import argparse
import math

import torch
from torch.profiler import ProfilerActivity, profile, schedule


class SlowFeatures(torch.utils.data.Dataset):
    """Random inputs whose features are computed in pure Python, slowly on
    purpose: the work a hand-written data pipeline does (decoding, feature
    extraction) without ATen ops, so it shows as time in the DataLoader range
    with few events."""

    def __init__(self, samples, features, classes, work, seed):
        generator = torch.Generator().manual_seed(seed)
        self.raw = torch.rand(samples, features, generator=generator).tolist()
        self.labels = torch.randint(0, classes, (samples,), generator=generator).tolist()
        self.work = work

    def __len__(self):
        return len(self.raw)

    def __getitem__(self, index):
        row = self.raw[index]
        features = []
        for x in row:
            # A short series per feature: sum of sin(k x) / k.
            features.append(sum(math.sin(k * x) / k for k in range(1, self.work + 1)))
        return torch.tensor(features), self.labels[index]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="path of the trace to write (.json)")
    parser.add_argument("--active-steps", type=int, default=3, help="steps recorded")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--features", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--work", type=int, default=400,
                        help="terms per feature in __getitem__: the data stall")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # the same ops on any machine: no intra-op thread pool
    classes = 10
    steps = 2 + args.active_steps  # wait 1, warm up 1, then record
    dataset = SlowFeatures(steps * args.batch, args.features, classes, args.work, args.seed)
    loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch, shuffle=True,
                                         num_workers=0)
    model = torch.nn.Sequential(
        torch.nn.Linear(args.features, args.hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(args.hidden, classes),
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()

    def export(prof):
        prof.export_chrome_trace(args.output)

    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=1, warmup=1, active=args.active_steps, repeat=1),
                 on_trace_ready=export) as prof:
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(inputs), labels)
            loss.backward()
            optimizer.step()
            prof.step()
    print(f"kineto available: {torch.autograd.kineto_available()}; wrote {args.output}")


if __name__ == "__main__":
    main()
