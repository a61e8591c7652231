import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus_lines():
    """The Rust parity corpus: the lines every build on every architecture must print."""
    snap = ROOT / "tests" / "snapshots" / "parity__parity_corpus.snap"
    text = snap.read_text()
    # insta's header ends at the second `---` line.
    body = text.split("---\n", 2)[2]
    return [line for line in body.splitlines() if line]
