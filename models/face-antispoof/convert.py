#!/usr/bin/env python3
"""Convert Silent-Face-Anti-Spoofing's two MiniFASNet weight files to the ONNX files beside this script.

Needs the upstream repository (its .pth weights and src/model_lib/MiniFASNet.py, which defines the
network the weights belong to) and Debian's python3-torch + python3-onnx:

    git clone https://github.com/minivision-ai/Silent-Face-Anti-Spoofing /tmp/sfas   # commit b6d5f04
    /usr/bin/python3 models/face-antispoof/convert.py /tmp/sfas

It does not train anything: the weights are the authors'. What it changes is arithmetic only, so the
graph stays within the ops src/platform/ml/onnx-tfjs.ts runs:
  - every BatchNorm is folded into the layer before it (the exporter folds Conv+BatchNorm2d; the
    BatchNorm1d after the embedding's Linear is folded here, by hand, into that Linear's weights);
  - Dropout disappears (eval mode);
  - a Softmax is appended, so the output is the three class probabilities (0: print, 1: live,
    2: replay/screen, as the authors' test.py reads index 1 as "real face").
Input: float32 [1, 3, 80, 80], BGR channel order, values 0..255 (their ToTensor does not divide).
"""
import importlib.util
import sys
from collections import OrderedDict
from pathlib import Path

import onnx
import torch

HERE = Path(__file__).resolve().parent
MODELS = {
    # output file: (weights file in the repository, class name in MiniFASNet.py)
    "minifasnet-v2-2.7.onnx": ("2.7_80x80_MiniFASNetV2.pth", "MiniFASNetV2"),
    "minifasnet-v1se-4.0.onnx": ("4_0_0_80x80_MiniFASNetV1SE.pth", "MiniFASNetV1SE"),
}


def load_model_lib(repo: Path):
    spec = importlib.util.spec_from_file_location("MiniFASNet", repo / "src/model_lib/MiniFASNet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class WithSoftmax(torch.nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


def fold_embedding_batchnorm(net):
    """linear (no bias) → bn (BatchNorm1d) as one Linear with a bias."""
    bn, linear = net.bn, net.linear
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    folded = torch.nn.Linear(linear.in_features, linear.out_features, bias=True)
    with torch.no_grad():
        folded.weight.copy_(linear.weight * scale[:, None])
        folded.bias.copy_(bn.bias - bn.running_mean * scale)
    net.linear = folded
    net.bn = torch.nn.Identity()


def main(repo: Path):
    lib = load_model_lib(repo)
    torch.manual_seed(0)
    for out_name, (weights, cls) in MODELS.items():
        # 80×80 input: conv6 kernel (80 + 15) // 16 = 5, as the repository's get_kernel computes it.
        net = getattr(lib, cls)(conv6_kernel=(5, 5))
        net.conv_6_flatten = torch.nn.Flatten()  # exported as one Flatten, not Shape→Gather→Reshape
        state = torch.load(repo / "resources/anti_spoof_models" / weights, map_location="cpu")
        state = OrderedDict((k[7:] if k.startswith("module.") else k, v) for k, v in state.items())
        net.load_state_dict(state)
        net.eval()
        x = torch.rand(4, 3, 80, 80) * 255
        with torch.no_grad():
            before = torch.softmax(net(x), dim=1)
            fold_embedding_batchnorm(net)
            wrapped = WithSoftmax(net).eval()
            after = wrapped(x)
        assert torch.allclose(before, after, atol=1e-5), "folding the BatchNorm1d changed the output"
        out = HERE / out_name
        torch.onnx.export(
            wrapped,
            x[:1],
            str(out),
            input_names=["input"],
            output_names=["probabilities"],
            opset_version=11,
            do_constant_folding=True,
        )
        model = onnx.load(str(out))
        onnx.checker.check_model(model)
        ops = sorted({n.op_type for n in model.graph.node})
        print(f"{out_name}: {out.stat().st_size} bytes, ops {ops}")
        # Reference outputs for a fixed input, for the runtime's test (no repository needed there).
        probe = torch.arange(3 * 80 * 80, dtype=torch.float32).reshape(1, 3, 80, 80) % 251
        with torch.no_grad():
            print(f"  probe (arange mod 251) → {wrapped(probe).numpy().round(6).tolist()}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
