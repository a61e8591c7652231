//! Presets: `default` is the built-in world bit for bit, and every preset survives
//! print → parse (TOML and JSON) and to_bytes → from_bytes unchanged.

use stratagen_world::{parse, parse_as, preset, print, Definition, Format, PRESETS};

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
