#!/usr/bin/env python3
"""Loads samples/web in headless Chromium, draws digits through the page's
own pointer-event path and checks what the page computed.

  page_test.py --onnxcc BIN --work DIR [--chromium BIN] STROKES=DIGIT...

STROKES is a preset of app.js (one, seven, zero, four) or a JSON list of
strokes [[[x,y],...],...] in pad pixels; DIGIT is the class the drawing
must get. samples/web/build.sh builds the site into DIR/site; an
http.server thread serves it on 127.0.0.1 at a port the OS picks; for
each drawing, `chromium --headless --dump-dom` loads
index.html?selftest=STROKES and the JSON the page writes into
<pre id="result"> is checked:
  - the input is 64 values in [0, 1], multiples of 1/16 (block counts of a
    32x32 bitmap, as scikit-learn's digits), with ink in all 8 rows (the
    digit fills the height, as the training digits do);
  - onnxruntime run on that same input (tests/e2e/models/digits_cnn) gives
    logits within 1e-4 + 1e-4 |ref| of the page's, and softmax
    probabilities within 1e-4;
  - the predicted class is DIGIT and onnxruntime's argmax.
Exit status 1 on any failure, with the values that failed.
"""
import argparse
import functools
import html
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
MODEL = os.path.join(ROOT, "tests", "e2e", "models", "digits_cnn", "model.onnx")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """An http.server on 127.0.0.1, ephemeral port, in a daemon thread."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load_page(chromium, url, profile):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
           "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile,
           # Virtual time runs the page until it is idle (module fetched and
           # compiled, self-test done) or 20 s of page time have passed.
           "--virtual-time-budget=20000", "--dump-dom", url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="result">(.*?)</pre>', p.stdout, re.S)
    if p.returncode != 0 or not m or not m.group(1).strip():
        tail = "\n".join(p.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"no result from the page (chromium exit {p.returncode}):\n{tail}")
    return json.loads(html.unescape(m.group(1)))


def check(name, digit, page, session):
    """Returns a list of failures (empty when the page got it right)."""
    if "error" in page:
        return [f"the page reported: {page['error']}"]
    errors = []
    x = np.array(page["input"], dtype=np.float64)
    if x.shape != (64,):
        return [f"input has {x.size} values, expected 64 (8x8)"]
    if x.min() < 0 or x.max() > 1:
        errors.append(f"input outside [0, 1]: min {x.min()}, max {x.max()}")
    steps = x * 16
    off = np.abs(steps - np.round(steps))
    if off.max() > 1e-6:
        i = int(off.argmax())
        errors.append(f"input[{i}] = {x[i]} is not a multiple of 1/16")
    rows = (x.reshape(8, 8).sum(axis=1) > 0)
    if not rows.all():
        errors.append(f"rows without ink {np.nonzero(~rows)[0].tolist()}: the digit "
                      "does not fill the height as the training digits do")
    ref_logits = session.run(None, {"input": x.astype(np.float32).reshape(1, 1, 8, 8)})[0][0]
    ref_logits = ref_logits.astype(np.float64)
    e = np.exp(ref_logits - ref_logits.max())
    ref_probs = e / e.sum()
    for what, got, ref, atol, rtol in (("logits", page["logits"], ref_logits, 1e-4, 1e-4),
                                       ("probs", page["probs"], ref_probs, 1e-4, 0.0)):
        got = np.array(got, dtype=np.float64)
        bad = np.nonzero(np.abs(got - ref) > atol + rtol * np.abs(ref))[0]
        for i in bad:
            errors.append(f"{what}[{i}]: page {got[i]:.7g}, onnxruntime {ref[i]:.7g}")
    predicted = page["predicted"]
    if predicted != int(ref_probs.argmax()):
        errors.append(f"page predicted {predicted}, onnxruntime's argmax is {ref_probs.argmax()}")
    if predicted != digit:
        errors.append(f"predicted {predicted} (p={page['probs'][predicted]:.3f}), expected "
                      f"{digit} (p={page['probs'][digit]:.3f})")
    err = float(np.abs(np.array(page["probs"]) - ref_probs).max())
    print(f"{name}: predicted {predicted} (p={page['probs'][predicted]:.3f}); "
          f"max |prob - onnxruntime| {err:.2g}; input 8x8 ink {x.sum():.2f}")
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("drawings", nargs="+", metavar="STROKES=DIGIT")
    ap.add_argument("--onnxcc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args()
    start = time.monotonic()
    site = os.path.join(args.work, "site")
    build = subprocess.run([os.path.join(ROOT, "samples", "web", "build.sh"),
                            args.onnxcc, site], capture_output=True, text=True)
    if build.returncode != 0:
        print(f"error: build.sh failed:\n{build.stdout}{build.stderr}", file=sys.stderr)
        return 1
    wasm = os.path.join(site, "digits_cnn.wasm")
    print(f"digits_cnn.wasm {os.path.getsize(wasm)} bytes")
    session = ort.InferenceSession(MODEL, providers=["CPUExecutionProvider"])
    server = serve(site)
    failed = 0
    try:
        port = server.server_address[1]
        for k, drawing in enumerate(args.drawings):
            spec, digit = drawing.rsplit("=", 1)
            name = spec if len(spec) < 24 else spec[:21] + "..."
            url = (f"http://127.0.0.1:{port}/index.html?selftest="
                   + urllib.parse.quote(spec))
            try:
                page = load_page(args.chromium, url, os.path.join(args.work, f"profile{k}"))
                errors = check(name, int(digit), page, session)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
                errors = [str(e)]
            for e in errors:
                print(f"error: {name}: {e}", file=sys.stderr)
            failed += bool(errors)
    finally:
        server.shutdown()
        server.server_close()
    print(f"{'FAIL' if failed else 'PASS'}: {len(args.drawings) - failed} of "
          f"{len(args.drawings)} drawings in {time.monotonic() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
