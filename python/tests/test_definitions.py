"""Definitions: problems with line and column, presets printed and read back."""

import pytest

import stratagen

BAD = """format = 1
name = "mine"
base = "default"
[terrain]
stone = "granite"
bedrock_layers = 9
colr = 1
"""


def test_presets_are_valid():
    assert stratagen.presets() == ["default", "archipelago", "caverns"]
    for name in stratagen.presets():
        assert stratagen.check(name) == []


def test_every_problem_with_its_line_and_column():
    problems = stratagen.check(BAD)
    where = [(p["line"], p["column"], p["path"]) for p in problems]
    assert where == [(5, 9, "terrain.stone"), (6, 18, "terrain.bedrock_layers"), (7, 8, "terrain.colr")]
    assert 'unknown block "granite"' in problems[0]["message"]


def test_a_bad_document_makes_no_world():
    with pytest.raises(stratagen.DefinitionError) as e:
        stratagen.World(world=BAD)
    assert "5:9: terrain.stone" in str(e.value)


def test_printed_presets_are_the_same_world(tmp_path):
    for name in stratagen.presets():
        text = stratagen.print_preset(name)
        assert stratagen.definition_digest(text) == stratagen.definition_digest(name)
        path = tmp_path / f"{name}.json"
        path.write_text(stratagen.print_preset(name, json=True))
        assert stratagen.definition_digest(str(path)) == stratagen.definition_digest(name)
        assert stratagen.World(world=str(path)).definition_digest == stratagen.definition_digest(name)
    with pytest.raises(stratagen.ArgumentError):
        stratagen.print_preset("nope")
