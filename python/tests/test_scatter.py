"""Scatter through Python: the definition's layers, and a region's instances as one numpy
structured array that keeps each layer's distance across chunk borders and equals what the
chunks give one at a time."""

import numpy as np
import pytest

import stratagen


def test_layers_of_the_default_world():
    w = stratagen.World(3)
    layers = w.scatter_layers
    assert [l["name"] for l in layers] == ["trees", "rocks", "grass"]
    assert layers[0]["radius"] == 7.0 and "conifer" in layers[0]["kinds"]


def test_region_instances_keep_their_distance_and_equal_single_chunks():
    w = stratagen.World(3)
    a = w.scatter(-2, -2, 2, 2, threads=2)
    assert a.dtype.names == ("cx", "cz", "layer", "kind", "position", "yaw", "scale", "up")
    assert a.dtype.itemsize == 44
    assert len(a) > 100
    assert ((a["position"][:, [0, 2]] >= 0) & (a["position"][:, [0, 2]] < 16)).all()
    assert ((a["yaw"] >= 0) & (a["yaw"] < 2 * np.pi)).all()
    layers = w.scatter_layers
    for li, layer in enumerate(layers):
        mine = a[a["layer"] == li]
        assert (mine["kind"] < len(layer["kinds"])).all()
        xz = np.stack(
            [mine["cx"] * 16.0 + mine["position"][:, 0], mine["cz"] * 16.0 + mine["position"][:, 2]],
            axis=1,
        )
        if len(xz) > 1:
            d = np.sqrt(((xz[:, None, :] - xz[None, :, :]) ** 2).sum(axis=2))
            np.fill_diagonal(d, np.inf)
            # f32 positions: allow their rounding.
            assert d.min() >= layer["radius"] - 1e-3, (layer["name"], d.min())
    one = w.scatter(1, -1, 1, -1, threads=1)
    part = a[(a["cx"] == 1) & (a["cz"] == -1)]
    assert one.tobytes() == part.tobytes()
    grass = w.scatter(1, -1, 1, -1, layer="grass")
    assert grass.tobytes() == part[part["layer"] == 2].tobytes()
    # The array is the caller's: writable.
    one["scale"] *= 2


def test_an_unknown_layer_is_an_argument_error():
    with pytest.raises(stratagen.ArgumentError, match="no scatter layer"):
        stratagen.World(3).scatter(0, 0, 0, 0, layer="clouds")
