#!/usr/bin/env python3
"""Derives vmath.h's tanh_rational(): tanh(x) = x P(x^2) / Q(x^2) on [0, 9],
P of degree 6 and Q of degree 3 in x^2 (Q(0) = 1), fitted to tanh's
relative error by iteratively reweighted linear least squares (the weights
grow where the error is largest, towards a minimax fit). Prints the float
coefficients, highest power first, and their errors evaluated in float32.

    .venv/bin/python scripts/fit_tanh_rational.py
"""
import numpy as np
from numpy.polynomial import polynomial as P

C = 9.0  # tanh rounds to 1 in float from here on; vmath.h returns +-1
NP, NQ = 7, 4


def fit():
    x = np.linspace(1e-4, C, 400001)
    t = np.tanh(x)
    u = (x / C) ** 2  # scaled: z^6 would reach 5e11 unscaled
    w = np.ones_like(x)
    best = None
    for _ in range(60):
        a = np.concatenate([np.stack([x * u**i for i in range(NP)], 1),
                            np.stack([-t * u**i for i in range(1, NQ)], 1)], 1)
        sw = w / t
        sol, *_ = np.linalg.lstsq(a * sw[:, None], t * sw, rcond=None)
        p, q = sol[:NP], np.concatenate([[1.0], sol[NP:]])
        err = np.abs(x * P.polyval(u, p) / P.polyval(u, q) - t) / t
        if best is None or err.max() < best[0]:
            best = (err.max(), p.copy(), q.copy())
        w = w * np.sqrt(err / err.mean() + 1e-3)
        w /= w.mean()
    _, p, q = best
    pz = np.array([p[i] / C ** (2 * i) for i in range(NP)], np.float32)
    qz = np.array([q[i] / C ** (2 * i) for i in range(NQ)], np.float32)
    return pz, qz


def tanh32(x, pz, qz):
    z = (x * x).astype(np.float32)
    p, q = pz[-1], qz[-1]
    for c in pz[-2::-1]:
        p = (p * z + c).astype(np.float32)
    for c in qz[-2::-1]:
        q = (q * z + c).astype(np.float32)
    r = (x * p / q).astype(np.float32)
    return np.where(np.abs(x) >= C, np.sign(x), r).astype(np.float32)


def main():
    pz, qz = fit()
    print("P:", ", ".join("%.9ef" % v for v in pz[::-1]))
    print("Q:", ", ".join("%.9ef" % v for v in qz[::-1]))
    x = np.concatenate([np.linspace(-12, 12, 2000001),
                        10.0 ** np.linspace(-10, 1.2, 200001)]).astype(np.float32)
    ref = np.tanh(x.astype(np.float64))
    err = np.abs(tanh32(x, pz, qz) - ref)
    rel = err[ref != 0] / np.abs(ref[ref != 0])
    print("tanh in float32, no fused multiply-adds: max abs %.3g, max rel %.3g"
          % (err.max(), rel.max()))


if __name__ == "__main__":
    main()
