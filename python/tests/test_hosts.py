"""Many Python threads on one World, Chunk and Store never hang; a pregeneration stops on
Ctrl-C or at the progress callback's word and resumes; errors keep their fields.

The thread test runs under a watchdog (faulthandler, in C, which needs no GIL): a deadlock
ends the process with every thread's traceback instead of hanging the run."""

import faulthandler
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import stratagen

# How long the mixed workload runs, and how long past that the watchdog waits.
STRESS_SECONDS = 4.0
WATCHDOG_SECONDS = 60


def test_threads_mixing_every_call_on_shared_objects_never_hang(tmp_path, capfd):
    world = stratagen.World(seed=3)
    plain = stratagen.World(seed=3)
    want = {(c.x, c.z): c.digest for c in plain.region(0, 0, 3, 1, threads=1)}
    stored = tmp_path / "stored.sqlite"
    stratagen.pregen(str(stored), 0, 0, 1, 1, seed=3, threads=1)
    store = stratagen.Store(str(stored))
    stored_digests = {(x, z): plain.chunk(x, z).digest for x, z in store.positions()}
    shared = plain.region(0, 0, 1, 0, threads=1)
    stop = time.monotonic() + STRESS_SECONDS
    errors = []
    counts = {}

    def loop(name, body):
        def run():
            i = 0
            try:
                while time.monotonic() < stop:
                    body(i)
                    i += 1
            except BaseException as e:  # noqa: BLE001 - reported by the main thread
                errors.append((name, repr(e)))
            counts[name] = i

        return threading.Thread(target=run, name=name, daemon=True)

    def chunks(i):
        world.chunk(i % 5, 0, threads=1)

    def edits(i):
        world.set_block(i % 64, 70, 3, 1 + i % 2)

    def regions_and_blocks(i):
        got = {(c.x, c.z): c.digest for c in plain.region(0, 0, 3, 1, threads=2)}
        assert got == want
        assert world.block(i % 64, 70, 3) in (1, 2)

    def meshes(i):
        world.mesh(i % 3, 0, threads=1)

    fresh_chunks = []

    def readers(k):
        def read(i):
            # New chunks now and then, so several threads decode the same one at once.
            if k == 0 and i % 50 == 0:
                fresh_chunks[:] = plain.region(4, 0, 5, 0, threads=1)
            for c in shared + list(fresh_chunks):
                assert c.blocks.shape == (plain.height, 16, 16)

        return read

    def store_reads(i):
        assert len(store) == 4
        x, z = store.positions()[i % 4]
        assert store.chunk(x, z).digest == stored_digests[(x, z)]
        if i % 10 == 0:
            assert [c.digest for c in store.region(0, 0, 1, 1)] == [
                stored_digests[(x, z)] for z in (0, 1) for x in (0, 1)
            ]

    def pregens(i):
        path = tmp_path / f"pregen-{i}.sqlite"
        stratagen.pregen(str(path), 0, 0, 0, 0, seed=3, threads=1)
        assert stratagen.Store(str(path)).chunk(0, 0).digest == want[(0, 0)]

    threads = [
        loop("chunk", chunks),
        loop("set_block", edits),
        loop("region+block", regions_and_blocks),
        loop("mesh", meshes),
        loop("blocks-0", readers(0)),
        loop("blocks-1", readers(1)),
        loop("store", store_reads),
        loop("pregen", pregens),
    ]
    # The watchdog writes to the real stderr: the process ends before pytest could show
    # what it captured.
    with capfd.disabled():
        faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=max(0.0, stop - time.monotonic()) + WATCHDOG_SECONDS / 2)
        finally:
            faulthandler.cancel_dump_traceback_later()
    assert not [t.name for t in threads if t.is_alive()], "threads still running"
    assert not errors, errors
    assert all(counts[t.name] > 0 for t in threads), counts


def test_the_progress_callback_stops_a_run_that_a_rerun_resumes(tmp_path):
    path = tmp_path / "w.sqlite"
    seen = []

    def stop(done, total):
        seen.append(done)
        if done >= 3:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        stratagen.pregen(str(path), 0, 0, 5, 3, seed=4, threads=2, progress=stop)
    # Stopped at once: the three chunks reported stored are, and nothing after them.
    assert len(stratagen.Store(str(path))) == 3 and seen == [1, 2, 3]
    again = stratagen.pregen(str(path), 0, 0, 5, 3, seed=4, threads=2)
    assert again["skipped"] == 3 and again["generated"] == 21
    world = stratagen.World(seed=4)
    assert [c.digest for c in stratagen.Store(str(path)).region(0, 0, 5, 3)] == [
        c.digest for c in world.region(0, 0, 5, 3)
    ]


CTRL_C_CHILD = textwrap.dedent(
    """
    import sys, time
    import stratagen
    def progress(done, total):
        if done == 2:
            print("started", flush=True)
    try:
        stratagen.pregen(sys.argv[1], 0, 0, 31, 15, seed=8, threads=2, progress=progress)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sends SIGINT")
def test_ctrl_c_stops_a_pregen_within_a_second_and_the_store_resumes(tmp_path):
    path = tmp_path / "interrupted.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD, str(path)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        last = child.stdout.readline().strip()
        stopped = time.monotonic() - sent
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
    assert last == "interrupted"
    assert stopped < 1.0, f"stopped {stopped:.2f} s after Ctrl-C"
    kept = len(stratagen.Store(str(path)))
    assert 2 <= kept < 512
    again = stratagen.pregen(str(path), 0, 0, 31, 15, seed=8, threads=2)
    assert again["skipped"] == kept and again["generated"] == 512 - kept


def test_a_conflicting_merge_and_a_foreign_store_carry_their_fields(tmp_path):
    a, damaged = tmp_path / "a.sqlite", tmp_path / "damaged.sqlite"
    stratagen.pregen(str(a), 0, 0, 1, 0, seed=5, threads=1)
    shutil.copy(a, damaged)
    with sqlite3.connect(str(damaged)) as db:
        (record,) = db.execute("SELECT record FROM chunks WHERE x = 1 AND z = 0").fetchone()
        flipped = bytes([record[0] ^ 1]) + record[1:]
        db.execute("UPDATE chunks SET record = ? WHERE x = 1 AND z = 0", (flipped,))
    out = tmp_path / "out.sqlite"
    assert stratagen.merge(str(out), [str(a)])[0]["copied"] == 2
    with pytest.raises(stratagen.ConflictError) as e:
        stratagen.merge(str(out), [str(damaged)])
    assert (e.value.x, e.value.z, e.value.edits) == (1, 0, False)
    assert isinstance(e.value, stratagen.StoreError)

    with pytest.raises(stratagen.ForeignWorldError) as e:
        stratagen.pregen(str(a), 0, 0, 0, 0, seed=6)
    assert (e.value.field, e.value.stored, e.value.wanted) == ("seed", "5", "6")
    with pytest.raises(stratagen.ForeignWorldError) as e:
        stratagen.Store(str(a), world="caverns")
    assert e.value.field == "definition"


@pytest.mark.parametrize(
    "call",
    [
        lambda w, p: w.region(1, 0, 0, 0),
        lambda w, p: w.region(0, 1, 0, 0),
        lambda w, p: w.region(0, 0, 1 << 21, 0),
        lambda w, p: w.scatter(0, 0, -1, 0),
        lambda w, p: stratagen.pregen(p, 2, 2, 1, 2),
        lambda w, p: stratagen.pregen(p, -(1 << 21), 0, 0, 0),
        lambda w, p: stratagen.tiles(0, 0, -1, -1),
        lambda w, p: stratagen.pregen(p, 0, 0, 0, 0, shard=(0, 1), tile=0),
    ],
)
def test_empty_inverted_and_out_of_range_regions_are_argument_errors(tmp_path, call):
    with pytest.raises(stratagen.ArgumentError):
        call(stratagen.World(), str(tmp_path / "never.sqlite"))
    assert not (tmp_path / "never.sqlite").exists()


@pytest.mark.parametrize(
    "call",
    [
        lambda w, p: w.chunk(2**40, 0),
        lambda w, p: w.chunk(0, -(2**31) - 1),
        lambda w, p: w.chunk(0, 0, threads=-1),
        lambda w, p: w.region(0, 0, 2**63, 0),
        lambda w, p: w.block(0, 2**32, 0),
        lambda w, p: w.set_block(0, 70, 2**35, 1),
        lambda w, p: w.save_edits(2**40, 0),
        lambda w, p: stratagen.World(seed=2**64),
        lambda w, p: stratagen.World(height=-16),
        lambda w, p: stratagen.Noise(octaves=-1),
        lambda w, p: stratagen.Noise().fill_2d(-1, 4),
        lambda w, p: stratagen.Noise().heightmap(2**40, 0, 16),
        lambda w, p: stratagen.tiles(0, 0, 2**31, 0),
        lambda w, p: stratagen.pregen(p, 0, 0, 0, 2**40),
        lambda w, p: stratagen.pregen(p, 0, 0, 0, 0, shard=(2**70, 1)),
    ],
)
def test_integers_that_do_not_fit_raise_range_error(tmp_path, call):
    # Both an ArgumentError (every bad argument is a stratagen.Error) and an OverflowError
    # (what Python code catching integer conversions expects).
    with pytest.raises(stratagen.RangeError) as e:
        call(stratagen.World(), str(tmp_path / "never.sqlite"))
    assert isinstance(e.value, stratagen.ArgumentError)
    assert isinstance(e.value, OverflowError)
    assert not (tmp_path / "never.sqlite").exists()


def test_default_settings_are_the_library_s():
    w = stratagen.World()
    assert (w.min_y, w.height, w.sea_level) == (
        stratagen.DEFAULT_MIN_Y,
        stratagen.DEFAULT_HEIGHT,
        stratagen.DEFAULT_SEA_LEVEL,
    )
    assert len(stratagen.tiles(0, 0, 2 * stratagen.DEFAULT_TILE - 1, 0)) == 2


FULL_DISK_CHILD = textwrap.dedent(
    """
    import sys
    import stratagen
    try:
        stratagen.pregen(sys.argv[1], 0, 0, 15, 15, seed=2, threads=2)
        print("finished")
    except stratagen.StoreError as e:
        print("refused:", e)
    """
)


def test_a_full_disk_reports_sqlite_s_error(tmp_path):
    """On a 1 MiB file system the writer fails mid-run; the caller gets SQLite's reason,
    not only that the writer stopped."""
    unshare = shutil.which("unshare")
    usable = unshare and subprocess.run([unshare, "-rm", "true"], capture_output=True).returncode == 0
    if not usable:
        if os.environ.get("CI"):
            pytest.fail("`unshare -rm` (util-linux, user namespaces) is needed under CI")
        pytest.skip("needs `unshare -rm` to mount a small tmpfs: install util-linux")
    mount = tmp_path / "small"
    mount.mkdir()
    child = tmp_path / "child.py"
    child.write_text(FULL_DISK_CHILD)
    script = f'mount -t tmpfs -o size=1m tmpfs "{mount}" && "{sys.executable}" "{child}" "{mount}/w.sqlite"'
    out = subprocess.run([unshare, "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused:"), out.stdout
    assert "database or disk is full" in out.stdout, out.stdout
