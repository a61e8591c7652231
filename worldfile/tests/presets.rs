//! Presets: `default` is the built-in world bit for bit, and every preset survives
//! print → parse (TOML and JSON) and to_bytes → from_bytes unchanged.

use stratagen_worldfile::{parse, parse_as, preset, print, Definition, Format, PRESETS};

#[test]
fn the_default_preset_is_the_builtin_world() {
    let d = parse(preset("default").unwrap()).unwrap();
    assert_eq!(d, Definition::builtin());
    assert_eq!(d.digest(), Definition::builtin().digest());
}

#[test]
fn every_preset_round_trips_through_toml_and_json() {
    for name in PRESETS {
        let d = parse(preset(name).unwrap()).unwrap_or_else(|e| panic!("{name}:\n{e}"));
        assert_eq!(d.name, name);
        for format in [Format::Toml, Format::Json] {
            let text = print(&d, format);
            let back = parse_as(&text, format).unwrap_or_else(|e| panic!("{name}:\n{e}"));
            assert_eq!(back.digest(), d.digest(), "{name} {format:?}");
            assert_eq!(back, d, "{name} {format:?}");
        }
        // The canonical bytes (what the digest hashes) hold the whole definition.
        assert_eq!(
            Definition::from_bytes(&d.to_bytes()).as_ref(),
            Ok(&d),
            "{name}"
        );
    }
}

/// The example of the README and of `docs/worlds.md` is `docs/worlds/highlands.toml`, word
/// for word, and it parses.
#[test]
fn the_readme_example_is_the_checked_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = std::fs::read_to_string(root.join("docs/worlds/highlands.toml")).unwrap();
    for doc in ["README.md", "docs/worlds.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let start = text
            .find("```toml\n# The default world raised")
            .unwrap_or_else(|| panic!("the example block in {doc}"))
            + 8;
        let end = start + text[start..].find("```").unwrap();
        assert_eq!(&text[start..end], file, "{doc}");
    }
    assert!(file.lines().count() <= 20);
    let d = parse(&file).unwrap();
    assert_eq!(d.blocks.by_name("red_sand"), Some(46));
    assert_ne!(d.digest(), Definition::builtin().digest());
}

/// `presets/default.toml` is what `stratagen world print default` writes (after its comment
/// header), so the committed file never drifts from the printer.
#[test]
fn the_default_preset_file_is_the_printed_builtin_world() {
    let text = preset("default").unwrap();
    let body: String = text
        .lines()
        .skip_while(|l| l.starts_with('#') || l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(body, print(&Definition::builtin(), Format::Toml));
}

/// A noise table may choose `precision = "f32"`: a different world (its own digest) that
/// survives printing and the canonical bytes; an unknown precision is a positioned problem.
#[test]
fn a_noise_table_may_choose_f32() {
    use stratagen_core::noise::Precision;
    let mut d = Definition::builtin();
    d.climate.noises[2].precision = Precision::F32;
    assert_ne!(d.digest(), Definition::builtin().digest());
    for format in [Format::Toml, Format::Json] {
        let text = print(&d, format);
        assert_eq!(text.matches("f32").count(), 1, "{format:?}:\n{text}");
        let back = parse_as(&text, format).unwrap();
        assert_eq!(back, d);
        assert_eq!(back.digest(), d.digest());
    }
    let back = Definition::from_bytes(&d.to_bytes()).unwrap();
    assert_eq!(back, d);
    let text = print(&d, Format::Toml).replace("\"f32\"", "\"f16\"");
    let problems = parse(&text).unwrap_err().to_string();
    assert!(problems.contains("precision"), "{problems}");
}

/// Scatter layers change no block: they travel in a definition's bytes but stay out of its
/// digest, so a world's stored chunks stay its own whatever props it scatters.
#[test]
fn scatter_layers_travel_in_the_bytes_but_not_the_digest() {
    let d = Definition::builtin();
    assert_eq!(d.scatter.len(), 3);
    let mut bare = d.clone();
    bare.scatter.clear();
    assert_eq!(d.digest(), bare.digest());
    let (with, without) = (d.to_bytes(), bare.to_bytes());
    assert_eq!(&with[..without.len()], &without[..]);
    assert_eq!(Definition::from_bytes(&with).unwrap(), d);
    assert_eq!(Definition::from_bytes(&without).unwrap(), bare);
    // A damaged tag, or a layer the checks refuse, is refused.
    let mut forged = with.clone();
    forged[without.len()] ^= 1;
    assert!(Definition::from_bytes(&forged).is_err());
    let mut bad = d.clone();
    bad.scatter[0].radius = 1000.0;
    assert!(Definition::from_bytes(&bad.to_bytes()).is_err());
}

/// A scatter layer's density noise survives printing and the canonical bytes.
#[test]
fn a_scatter_density_noise_round_trips() {
    let mut d = Definition::builtin();
    d.scatter[2].density_noise = Some(stratagen_core::noise::NoiseDef {
        seed: 5,
        octaves: 2,
        frequency: 1.0 / 40.0,
        ..Default::default()
    });
    assert_eq!(d.check(), Vec::new());
    for format in [Format::Toml, Format::Json] {
        let back = parse_as(&print(&d, format), format).unwrap();
        assert_eq!(back, d);
    }
    assert_eq!(Definition::from_bytes(&d.to_bytes()).unwrap(), d);
    assert_eq!(d.digest(), Definition::builtin().digest());
}
