"""Noise arrays: shapes, dtypes, contiguity, the point sampler's bits, and refusals."""

import math

import numpy as np
import pytest

import stratagen


def test_fill_2d_is_height_by_width_float64_c_contiguous():
    a = stratagen.Noise().fill_2d(7, 5)
    assert a.shape == (5, 7)
    assert a.dtype == np.float64
    assert a.flags["C_CONTIGUOUS"]
    assert a.flags["OWNDATA"] or a.base is not None


def test_fill_2d_samples_are_the_point_samples():
    n = stratagen.Noise(type="simplex", fractal="ridged", octaves=5, frequency=0.031, seed=7)
    x0, y0, dx, dy = -100.25, 33.5, 0.75, 1.5
    a = n.fill_2d(13, 9, x0=x0, y0=y0, dx=dx, dy=dy)
    for j in range(9):
        for i in range(13):
            assert a[j, i] == n.sample_2d(x0 + i * dx, y0 + j * dy)


def test_fill_3d_is_y_then_z_then_x():
    n = stratagen.Noise(type="value", octaves=3, frequency=0.05, seed=-3)
    a = n.fill_3d(4, 3, 2, x0=1.0, y0=2.0, z0=3.0, dx=2.0, dy=3.0, dz=5.0)
    assert a.shape == (3, 2, 4)
    for j in range(3):
        for k in range(2):
            for i in range(4):
                assert a[j, k, i] == n.sample_3d(1.0 + 2.0 * i, 2.0 + 3.0 * j, 3.0 + 5.0 * k)


def test_f32_precision_is_its_own_noise_and_fills_equal_samples():
    kw = dict(type="simplex", octaves=4, frequency=0.02, seed=3)
    single = stratagen.Noise(precision="f32", **kw)
    double = stratagen.Noise(**kw)
    assert 'precision="f32"' in repr(single)
    a = single.fill_2d(17, 5, x0=1.0e7, y0=-2.5)
    for j in range(5):
        for i in range(17):
            assert a[j, i] == single.sample_2d(1.0e7 + i, -2.5 + j)
    # Computed in float32: every sample is exactly a float32.
    assert np.array_equal(a, a.astype(np.float32).astype(np.float64))
    assert not np.array_equal(a, double.fill_2d(17, 5, x0=1.0e7, y0=-2.5))


def test_float32_on_request():
    n = stratagen.Noise(seed=11)
    a32 = n.fill_2d(16, 16, dtype=np.float32)
    assert a32.dtype == np.float32
    assert n.fill_2d(16, 16, dtype="float32").dtype == np.float32
    # The float32 fill is the float64 fill rounded to nearest.
    assert np.array_equal(a32, n.fill_2d(16, 16).astype(np.float32))


def test_heightmaps_of_neighbours_share_their_lattice():
    n = stratagen.Noise(frequency=0.02, seed=5)
    h = n.heightmap(3, -2, res=16)
    assert h.shape == (16, 16) and h.dtype == np.float32
    # Sample (i, j) is at block (16 cx + i, 16 cz + j) for res 16.
    assert h[5, 9] == np.float32(n.sample_2d(16 * 3 + 9, 16 * -2 + 5))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"frequency": math.nan},
        {"frequency": -1.0},
        {"octaves": 0},
        {"octaves": 17},
        {"gain": -0.5},
        {"cellular_jitter": 2.0},
        {"lacunarity": math.inf},
    ],
)
def test_bad_settings_raise_noise_error(kwargs):
    with pytest.raises(stratagen.NoiseError):
        stratagen.Noise(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"type": "perlinn"},
        {"fractal": "fractal"},
        {"cellular_return": "f3"},
        {"precision": "f16"},
    ],
)
def test_unknown_names_raise_argument_error(kwargs):
    with pytest.raises(stratagen.ArgumentError) as e:
        stratagen.Noise(**kwargs)
    assert "expected one of" in str(e.value)


def test_errors_derive_from_stratagen_error():
    for cls in (
        stratagen.ArgumentError,
        stratagen.DefinitionError,
        stratagen.WorldError,
        stratagen.NoiseError,
        stratagen.GenerationError,
        stratagen.StoreError,
    ):
        assert issubclass(cls, stratagen.Error)


def test_bad_fills_raise():
    n = stratagen.Noise()
    with pytest.raises(stratagen.ArgumentError):
        n.fill_2d(0, 5)
    with pytest.raises(stratagen.ArgumentError):
        n.fill_2d(1 << 20, 1 << 20)
    with pytest.raises(stratagen.NoiseError):
        n.fill_2d(4, 4, x0=math.nan)
    with pytest.raises(stratagen.ArgumentError):
        n.fill_2d(4, 4, dtype=np.int32)
    with pytest.raises(stratagen.ArgumentError):
        n.sample_2d(math.inf, 0.0)
    with pytest.raises(TypeError):
        n.fill_2d("4", 4)
    with pytest.raises((OverflowError, TypeError)):
        n.fill_2d(-4, 4)


def test_shader_source_of_an_f32_noise():
    n = stratagen.Noise(type="simplex", octaves=3, frequency=0.02, seed=7, precision="f32")
    wgsl = n.shader()
    assert "fn sg_noise_2d(p: vec2<f32>) -> f32" in wgsl
    assert "float sg_noise_3d(vec3 p)" in n.shader("glsl", dims=3)
    assert "float sg_noise_2d(vec2 p)" in n.shader(language="godot")
    # The same settings give the same text (the source depends on nothing else).
    again = stratagen.Noise(type="simplex", octaves=3, frequency=0.02, seed=7, precision="f32")
    assert again.shader() == wgsl
    assert stratagen.Noise(type="simplex", octaves=3, frequency=0.02, seed=8, precision="f32").shader() != wgsl


def test_shader_refusals():
    with pytest.raises(stratagen.ArgumentError, match="f32"):
        stratagen.Noise().shader()
    assert "sg_noise_3d" in stratagen.Noise(type="cellular", precision="f32").shader(dims=3)
    f32 = stratagen.Noise(precision="f32")
    with pytest.raises(stratagen.ArgumentError, match="dims"):
        f32.shader(dims=4)
    with pytest.raises(stratagen.ArgumentError, match="hlsl"):
        f32.shader("hlsl")
