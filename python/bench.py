"""Stratagen from Python against the Python noise libraries, and World.region against the
`stratagen bench` command, in one run on one machine. Ratios are Stratagen's time over the
peer's (below 1 is faster). Peers: `pip install pyfastnoiselite opensimplex noise`; the
command: `cargo build --release` (target/release/stratagen).

Usage: python python/bench.py [--rounds N] [--radius R]
"""

import argparse
import pathlib
import platform
import re
import subprocess
import threading
import time

import numpy as np

import stratagen

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cpu_model():
    try:
        info = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    field = lambda name: (re.search(rf"^{name}\s*:\s*(.*)$", info, re.M) or [None, "?"])[1]
    return f"{field('model name')} (family {field('cpu family')} model {field('model')})"


def best(fn, rounds):
    """The best wall time of `rounds` calls, in seconds."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def peers_2d(size, octaves, frequency):
    """2D Perlin fBm (opensimplex: simplex fBm) over a size × size grid, per peer."""
    out = {}
    try:
        from pyfastnoiselite.pyfastnoiselite import FastNoiseLite, FractalType, NoiseType

        fnl = FastNoiseLite(0)
        fnl.noise_type = NoiseType.NoiseType_Perlin
        fnl.fractal_type = FractalType.FractalType_FBm
        fnl.fractal_octaves = octaves
        fnl.frequency = frequency
        ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
        coords = np.stack([xs.ravel(), ys.ravel()])
        out["pyfastnoiselite"] = lambda: fnl.gen_from_coords(coords)
    except ImportError:
        pass
    try:
        import opensimplex

        opensimplex.seed(0)
        axis = np.arange(size, dtype=np.float64)

        def simplex_fbm():
            total = np.zeros((size, size))
            for o in range(octaves):
                f = frequency * 2.0**o
                total += 0.5**o * opensimplex.noise2array(axis * f, axis * f)
            return total

        out["opensimplex"] = simplex_fbm
    except ImportError:
        pass
    try:
        import noise

        def pnoise():
            f = frequency
            return [noise.pnoise2(x * f, y * f, octaves=octaves) for y in range(size) for x in range(size)]

        out["noise"] = pnoise
    except ImportError:
        pass
    return out


def peers_3d(size, frequency):
    """3D Perlin, one octave (opensimplex: 3D simplex), over a size³ grid, per peer."""
    out = {}
    try:
        from pyfastnoiselite.pyfastnoiselite import FastNoiseLite, FractalType, NoiseType

        fnl = FastNoiseLite(0)
        fnl.noise_type = NoiseType.NoiseType_Perlin
        fnl.fractal_type = FractalType.FractalType_None
        fnl.frequency = frequency
        zs, ys, xs = np.mgrid[0:size, 0:size, 0:size].astype(np.float32)
        coords = np.stack([xs.ravel(), ys.ravel(), zs.ravel()])
        out["pyfastnoiselite"] = lambda: fnl.gen_from_coords(coords)
    except ImportError:
        pass
    try:
        import opensimplex

        axis = np.arange(size, dtype=np.float64) * frequency
        out["opensimplex"] = lambda: opensimplex.noise3array(axis, axis, axis)
    except ImportError:
        pass
    try:
        import noise

        def pnoise():
            f = frequency
            return [
                noise.pnoise3(x * f, y * f, z * f)
                for z in range(size)
                for y in range(size)
                for x in range(size)
            ]

        out["noise"] = pnoise
    except ImportError:
        pass
    return out


def noise_rows(rounds):
    n2 = stratagen.Noise(type="perlin", fractal="fbm", octaves=4, frequency=0.01)
    n3 = stratagen.Noise(type="perlin", fractal="none", octaves=1, frequency=0.05)
    rows = [
        ("2D Perlin fBm 512², 4 octaves", lambda: n2.fill_2d(512, 512), peers_2d(512, 4, 0.01)),
        ("3D Perlin 64³", lambda: n3.fill_3d(64, 64, 64), peers_3d(64, 0.05)),
    ]
    for label, ours, peers in rows:
        t = best(ours, rounds)
        print(f"{label}: stratagen {t * 1e3:.2f} ms")
        for name, fn in peers.items():
            # The per-point peers take seconds: one round each.
            p = best(fn, 1 if name in ("noise", "opensimplex") else rounds)
            print(f"  {name:16} {p * 1e3:9.2f} ms   ratio {t / p:.4f}")


def command_chunks_per_s(radius, threads, rounds):
    exe = ROOT / "target" / "release" / "stratagen"
    out = subprocess.run(
        [str(exe), "bench", "--radius", str(radius), "--threads", str(threads), "--rounds", str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    line = [l for l in out.splitlines() if l.startswith(f"bench threads={threads} ")][-1]
    return float(re.search(r"chunks_per_s=([0-9.]+)", line).group(1))


def region_rows(radius, rounds):
    world = stratagen.World(seed=0)
    side = 2 * radius + 1
    region = lambda threads: world.region(-radius, -radius, radius, radius, threads=threads)
    ours = side * side / best(lambda: region(2), rounds)
    cli = command_chunks_per_s(radius, 2, rounds)
    print(f"World.region({side}×{side}, threads=2): {ours:.1f} chunks/s; "
          f"stratagen bench --threads 2: {cli:.1f} chunks/s; ratio {ours / cli:.3f}")

    # Two Python threads on different regions at once, against one after the other.
    half = radius // 2
    regions = [(-half - 40, -half, half - 40, half), (-half + 40, -half, half + 40, half)]
    run = lambda r: world.region(*r, threads=1)
    sequential = best(lambda: [run(r) for r in regions], rounds)

    def concurrent():
        ts = [threading.Thread(target=run, args=(r,)) for r in regions]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    together = best(concurrent, rounds)
    print(f"two Python threads, region(threads=1) each: together {together:.3f} s, "
          f"one after the other {sequential:.3f} s; ratio {together / sequential:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--radius", type=int, default=15)
    a = ap.parse_args()
    # What a process generating on several threads should do (as the CLI does at start).
    stratagen.keep_freed_memory()
    print(f"cpu {cpu_model()}")
    print(f"stratagen {stratagen.__version__}, numpy {np.__version__}, Python {platform.python_version()}")
    noise_rows(a.rounds)
    region_rows(a.radius, max(1, a.rounds // 2))


if __name__ == "__main__":
    main()
