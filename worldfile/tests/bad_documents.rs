//! One test per kind of problem a designer can make: each bad document is refused (nothing is
//! made), and the problem names the path, says what is wrong, and points at the line:column
//! where it was written.

use stratagen_worldfile::{parse, parse_as, preset, print, Definition, Format, Pos, Problems};

/// The problems of a document that must be refused.
fn problems(text: &str) -> Problems {
    match parse(text) {
        Ok(d) => panic!("accepted a bad document ({}):\n{text}", d.name),
        Err(p) => p,
    }
}

/// `text` is refused with a problem at `path` whose message contains `says`, written at
/// `line:column` (`None`: a value from the base preset, which has no position in the text).
fn refused(text: &str, path: &str, says: &str, at: Option<(usize, usize)>) {
    let p = problems(text);
    let hit = p.list.iter().find(|q| q.path == path).unwrap_or_else(|| {
        panic!("no problem at {path:?}; got:\n{p}");
    });
    assert!(
        hit.message.contains(says),
        "{path}: {:?} does not say {says:?}",
        hit.message
    );
    assert_eq!(
        hit.at,
        at.map(|(line, column)| Pos { line, column }),
        "{path}: position"
    );
    // The printed form carries all three.
    let shown = hit.to_string();
    assert!(shown.contains(path) && shown.contains(says), "{shown}");
}

/// A document on the default world with `rest` appended.
fn on_default(rest: &str) -> String {
    format!("format = 1\nname = \"mine\"\nbase = \"default\"\n{rest}")
}

#[test]
fn unknown_key() {
    let doc = on_default("[[biomes]]\nname = \"plains\"\ncolr = [1, 2, 3]\n");
    refused(&doc, "biomes[4].colr", "unknown key `colr`", Some((6, 8)));
}

#[test]
fn unknown_top_level_key() {
    refused(
        &on_default("seed = 5\n"),
        "seed",
        "unknown key `seed`",
        Some((4, 8)),
    );
}

#[test]
fn wrong_type() {
    let doc = on_default("[terrain]\nbedrock_layers = \"four\"\n");
    refused(
        &doc,
        "terrain.bedrock_layers",
        "expected an integer, found a string",
        Some((5, 18)),
    );
}

#[test]
fn number_out_of_range_names_the_range() {
    let doc = on_default("[terrain]\nbedrock_layers = 9\n");
    refused(
        &doc,
        "terrain.bedrock_layers",
        "9 is out of range 0..=8",
        Some((5, 18)),
    );
}

#[test]
fn number_beyond_its_type() {
    let doc = on_default("[terrain.aquifer]\nbelow_sea = 5000000000\n");
    refused(
        &doc,
        "terrain.aquifer.below_sea",
        "out of range -2147483648..=2147483647",
        Some((5, 13)),
    );
}

#[test]
fn not_finite() {
    let doc = on_default("[climate]\nstretch = nan\n");
    refused(&doc, "climate.stretch", "must be > 0", Some((5, 11)));
}

#[test]
fn unknown_block() {
    let doc = on_default("[terrain]\nstone = \"granite\"\n");
    refused(
        &doc,
        "terrain.stone",
        "unknown block \"granite\"",
        Some((5, 9)),
    );
}

#[test]
fn unknown_biome() {
    let doc = on_default("[[structures]]\nkind = \"dungeon\"\nspacing = 8\nseparation = 2\nsalt = 1\nbiomes = [\"plains\", \"tundra\"]\n");
    refused(
        &doc,
        "structures[0].biomes[1]",
        "unknown biome \"tundra\"",
        Some((9, 21)),
    );
}

#[test]
fn unknown_tree() {
    let doc = on_default("[[features]]\nname = \"tree\"\ntrees = [{ biome = \"plains\", tree = \"palm\", per_chunk_quarters = 4 }]\n");
    refused(
        &doc,
        "features[6].trees[0].tree",
        "unknown tree \"palm\"",
        Some((6, 37)),
    );
}

#[test]
fn unknown_creature() {
    let doc = on_default(
        "[[biomes]]\nname = \"plains\"\nspawns = [{ creature = \"dragon\", weight = 1 }]\n",
    );
    refused(
        &doc,
        "biomes[4].spawns[0].creature",
        "unknown creature \"dragon\"",
        Some((6, 24)),
    );
}

#[test]
fn unknown_enum_value_lists_the_choices() {
    let doc = on_default("[[blocks]]\nname = \"orb\"\nshape = \"sphere\"\ncolour = [1, 2, 3]\n");
    refused(
        &doc,
        "blocks[46].shape",
        "unknown value \"sphere\" (one of: none, cube, cross, fluid, layer)",
        Some((6, 9)),
    );
}

#[test]
fn duplicate_names() {
    let doc = on_default("[[blocks]]\nname = \"ruby\"\ncolour = [200, 0, 0]\n\n[[blocks]]\nname = \"ruby\"\ncolour = [201, 0, 0]\n");
    refused(
        &doc,
        "blocks[47].name",
        "duplicate name \"ruby\"",
        Some((9, 8)),
    );
}

#[test]
fn invalid_names() {
    let doc = on_default("[[blocks]]\nname = \"Ruby Block\"\ncolour = [200, 0, 0]\n");
    refused(
        &doc,
        "blocks[46].name",
        "lower-case letters, digits and _",
        Some((5, 8)),
    );
}

#[test]
fn contradictory_block_properties() {
    let doc =
        on_default("[[blocks]]\nname = \"glass\"\nshape = \"cross\"\ncolour = [200, 200, 255]\n");
    refused(
        &doc,
        "blocks[46]",
        "opacity 15 needs shape cube",
        Some((4, 1)),
    );
}

#[test]
fn missing_key() {
    let doc = on_default("[[features]]\nname = \"gems\"\nkind = \"ore\"\nstep = 2\nblock = \"diamond_ore\"\nattempts = 2\nmin_y = 0\nmax_y = 10\nmin_radius = 1.0\nreplaces = [\"stone\"]\n");
    refused(
        &doc,
        "features[12]",
        "missing key `max_radius`",
        Some((4, 1)),
    );
}

#[test]
fn the_first_block_must_be_air() {
    let text = print(&Definition::builtin(), Format::Toml).replacen(
        "name = \"air\"\nshape = \"none\"\nsolid = false\nreplaceable = true\nopacity = 0\n",
        "name = \"air\"\n",
        1,
    );
    // The first [[blocks]] header is on line 5 of the printed document.
    refused(
        &text,
        "blocks[0]",
        "the first block is the empty block",
        Some((5, 1)),
    );
}

#[test]
fn the_sea_must_be_a_fluid() {
    let doc = on_default("[terrain]\nsea_fluid = \"ice\"\n");
    refused(
        &doc,
        "terrain.sea_fluid",
        "must be a fluid block",
        Some((5, 13)),
    );
}

#[test]
fn more_than_65535_blocks() {
    let d = Definition::builtin();
    let json = print(&d, Format::Json);
    let extra: Vec<String> = (0..65_535 - d.blocks.len() + 1)
        .map(|i| format!("{{\"name\": \"b{i}\", \"colour\": [1, 2, 3]}}"))
        .collect();
    let json = json.replacen(
        "\"blocks\": [",
        &format!("\"blocks\": [{},", extra.join(",")),
        1,
    );
    let p = parse_as(&json, Format::Json).unwrap_err();
    let hit = p
        .list
        .iter()
        .find(|q| q.path == "blocks")
        .expect("a problem at blocks");
    assert!(
        hit.message
            .contains("65536 blocks: a world has 1..=65535 blocks"),
        "{hit}"
    );
    assert!(hit.at.is_some());
}

#[test]
fn a_biome_no_climate_box_selects() {
    let doc = on_default("[[biomes]]\nname = \"tundra\"\ncolour = [200, 200, 200]\n");
    refused(
        &doc,
        "biomes[14]",
        "no climate box selects this biome",
        Some((4, 1)),
    );
}

#[test]
fn no_climate_boxes_at_all() {
    let doc = on_default("[climate]\nboxes = []\n");
    refused(
        &doc,
        "climate.boxes",
        "at least one climate box",
        Some((5, 9)),
    );
}

#[test]
fn an_inverted_climate_interval() {
    let doc =
        on_default("[climate]\nboxes = [{ biome = \"plains\", temperature = [0.5, -0.5] }]\n");
    refused(
        &doc,
        "climate.boxes[0].temperature",
        "low <= high",
        Some((5, 44)),
    );
}

#[test]
fn a_spline_that_does_not_increase() {
    let doc = on_default("[terrain]\nheight = [[-1.0, 0.0], [0.5, 1.0], [0.5, 2.0]]\n");
    refused(
        &doc,
        "terrain.height[2]",
        "must increase strictly",
        Some((5, 36)),
    );
}

#[test]
fn a_noise_setting_out_of_range() {
    let doc = on_default("[terrain.density]\noctaves = 20\n");
    refused(
        &doc,
        "terrain.density",
        "octaves is 20, must be 1..=16",
        Some((4, 1)),
    );
}

#[test]
fn structure_separation_not_below_spacing() {
    let doc = on_default("[[structures]]\nkind = \"dungeon\"\nspacing = 8\nseparation = 8\nsalt = 1\nbiomes = [\"plains\"]\n");
    refused(
        &doc,
        "structures[0].separation",
        "8 is out of range 0..=7",
        Some((7, 14)),
    );
}

#[test]
fn feature_step_out_of_range() {
    let doc = on_default("[[features]]\nname = \"boulder\"\nstep = 7\n");
    refused(
        &doc,
        "features[0].step",
        "7 is out of range 1..=4",
        Some((6, 8)),
    );
}

#[test]
fn a_feature_reaching_beyond_its_neighbours() {
    let doc = on_default("[[features]]\nname = \"ore_coal\"\nmax_radius = 12.0\n");
    refused(
        &doc,
        "features[1].max_radius",
        "out of range 0.9..=8",
        Some((6, 14)),
    );
}

#[test]
fn wrong_format_version() {
    let doc = "format = 2\nname = \"x\"\nbase = \"default\"\n";
    refused(
        doc,
        "format",
        "format 2 is not read by this library (it reads 1)",
        Some((1, 10)),
    );
}

#[test]
fn unknown_base_preset() {
    let doc = "format = 1\nname = \"x\"\nbase = \"moon\"\n";
    refused(
        doc,
        "base",
        "unknown preset \"moon\" (one of: default, archipelago, caverns)",
        Some((3, 8)),
    );
}

#[test]
fn toml_syntax_error() {
    let p = problems("format = 1\nname = \"x\n");
    assert_eq!(p.list.len(), 1);
    assert_eq!(p.list[0].at.map(|p| p.line), Some(2), "{p}");
}

#[test]
fn json_syntax_error_and_json_positions() {
    let p = parse_as("{\n  \"format\": 1,\n  \"name\": \"x\",,\n}", Format::Json).unwrap_err();
    assert_eq!(p.list[0].at.map(|p| p.line), Some(3), "{p}");
    let p = parse_as(
        "{\n  \"format\": 1,\n  \"name\": \"x\",\n  \"base\": \"default\",\n  \"terrain\": {\"stone\": \"granite\"}\n}",
        Format::Json,
    )
    .unwrap_err();
    let hit = p
        .list
        .iter()
        .find(|q| q.path == "terrain.stone")
        .expect("terrain.stone");
    assert_eq!(
        hit.at,
        Some(Pos {
            line: 5,
            column: 24
        })
    );
    assert!(hit.message.contains("unknown block \"granite\""));
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let doc = on_default(
        "[terrain]\nstone = \"granite\"\nbedrock_layers = 9\ncolr = 1\n\n[climate]\nstretch = -1.0\n",
    );
    let p = problems(&doc);
    let paths: Vec<&str> = p.list.iter().map(|q| q.path.as_str()).collect();
    for want in [
        "terrain.stone",
        "terrain.bedrock_layers",
        "terrain.colr",
        "climate.stretch",
    ] {
        assert!(paths.contains(&want), "{want} missing from {paths:?}");
    }
}

#[test]
fn problems_are_capped() {
    let mut doc = on_default("[terrain]\n");
    for i in 0..150 {
        doc.push_str(&format!("unknown_{i} = 1\n"));
    }
    let p = problems(&doc);
    assert_eq!(p.list.len(), stratagen_worldfile::MAX_PROBLEMS);
    assert_eq!(p.more, 50);
    assert!(p.to_string().ends_with("... and 50 more"));
}

#[test]
fn a_good_document_on_a_base_differs_only_where_it_says() {
    let d = parse(&on_default("[terrain]\nbedrock_layers = 2\n")).unwrap();
    let mut want = parse(preset("default").unwrap()).unwrap();
    want.name = "mine".into();
    want.terrain.bedrock_layers = 2;
    assert_eq!(d, want);
}

#[test]
fn columns_count_characters_not_bytes() {
    let doc = on_default("blocks = [{ name = \"é_x\", shape = \"sphere\", colour = [1, 2, 3] }]\n");
    refused(
        &doc,
        "blocks[46].shape",
        "unknown value \"sphere\"",
        Some((4, 35)),
    );
    refused(&doc, "blocks[46].name", "lower-case letters", Some((4, 20)));
}

/// Every problem has a position and is listed once.
fn positioned_and_distinct(p: &Problems) {
    let mut seen = std::collections::BTreeSet::new();
    for q in &p.list {
        assert!(q.at.is_some(), "no position: {q}\nof:\n{p}");
        assert!(seen.insert(q.to_string()), "listed twice: {q}\nof:\n{p}");
    }
}

#[test]
fn not_utf8_is_one_problem_at_the_bad_byte() {
    let mut doc = on_default("[terrain]\nbedrock_layers = 4 # caf").into_bytes();
    doc.push(0xE9); // Latin-1 "é": starts no UTF-8 character here
    doc.extend_from_slice(b"\n");
    let p = stratagen_worldfile::parse_bytes(&doc).unwrap_err();
    assert_eq!(p.list.len(), 1, "{p}");
    assert_eq!(
        p.list[0].at,
        Some(Pos {
            line: 5,
            column: 25
        }),
        "{p}"
    );
    assert!(p.list[0].message.contains("not UTF-8"), "{p}");
    // A multi-byte character cut at the end.
    let cut = "format = 1\nname = \"é".as_bytes();
    let p = stratagen_worldfile::parse_bytes(&cut[..cut.len() - 1]).unwrap_err();
    assert_eq!(p.list[0].at, Some(Pos { line: 2, column: 9 }), "{p}");
    assert!(p.list[0].message.contains("ends inside a character"), "{p}");
}

#[test]
fn empty_document_names_each_missing_key_once() {
    for text in ["", "\n\n", "{}"] {
        let p = problems(text);
        positioned_and_distinct(&p);
        assert!(
            p.list.iter().all(|q| q.message.starts_with("missing key")),
            "{p}"
        );
        assert_eq!(p.list.len(), 10, "{p}");
    }
}

/// A list item whose name is not a string cannot be identified: it gives that one problem,
/// and the base's items stay (no follow-on problems from a list that lost them).
#[test]
fn an_unnamed_item_on_a_base_is_one_problem() {
    let p = problems(&on_default("[[blocks]]\nname = 3\n"));
    assert_eq!(p.list.len(), 1, "{p}");
    assert_eq!(p.list[0].path, "blocks[46].name");
    assert_eq!(p.list[0].at, Some(Pos { line: 5, column: 8 }));
    let p = problems(&on_default("[[biomes]]\ncolour = [1, 2, 3]\n"));
    assert_eq!(p.list.len(), 1, "{p}");
    assert_eq!(p.list[0].message, "missing key `name`");
}

/// A value that cannot be read gives one problem, not one per use of the fallback.
#[test]
fn a_bad_table_gives_one_problem() {
    let p = problems(&on_default("climate = 5\n"));
    assert_eq!(p.list.len(), 1, "{p}");
    assert_eq!(p.list[0].path, "climate");
    let p = problems(&on_default("[terrain]\nstone = 7\n"));
    assert_eq!(p.list.len(), 1, "{p}");
    positioned_and_distinct(&p);
}

/// A problem in a value that comes from the base preset points at the `base` line.
#[test]
fn base_values_point_at_the_base_line() {
    // Renaming the stone block leaves the base's references to "stone" unresolved.
    let doc = on_default("[[blocks]]\nname = \"stone\"\nsolid = false\n");
    if let Err(p) = parse(&doc) {
        positioned_and_distinct(&p);
    }
    let doc = format!("{}creatures = []\n", on_default(""));
    let p = problems(&doc);
    positioned_and_distinct(&p);
    assert!(
        p.list
            .iter()
            .any(|q| q.at == Some(Pos { line: 3, column: 8 })),
        "{p}"
    );
}

/// A list item that is not a table (JSON readers accept `}, 2 {`) is one problem, and the
/// document is refused.
#[test]
fn a_list_item_that_is_not_a_table_is_refused() {
    let p = problems(&on_default("biomes = [2]\n"));
    assert_eq!(p.list.len(), 1, "{p}");
    assert_eq!(p.list[0].path, "biomes[14]");
    assert!(p.list[0].message.contains("expected a table"), "{p}");
    let json = r#"{"format": 1, "name": "mine", "base": "default", "blocks": [{"name": "marble", "colour": [1, 2, 3]}, 2]}"#;
    let p = problems(json);
    assert_eq!(p.list.len(), 1, "{p}");
    positioned_and_distinct(&p);
}

#[test]
fn scatter_layer_out_of_range() {
    // `rocks` is the default world's second layer: the document's radius merges into it.
    let doc = on_default("[[scatter]]\nname = \"rocks\"\nradius = 100.0\n");
    refused(
        &doc,
        "scatter[1].radius",
        "radius must be a number in 0.5..=64",
        Some((6, 10)),
    );
}

#[test]
fn scatter_layer_unknown_names() {
    let doc = on_default(
        "[[scatter]]\nname = \"ferns\"\nradius = 2.0\nbiomes = [\"tundra\"]\non = [\"moss\"]\n",
    );
    refused(
        &doc,
        "scatter[3].biomes[0]",
        "unknown biome \"tundra\"",
        Some((7, 11)),
    );
    refused(
        &doc,
        "scatter[3].on[0]",
        "unknown block \"moss\"",
        Some((8, 7)),
    );
}

#[test]
fn scatter_kind_weight_zero_and_duplicate_kinds() {
    let doc = on_default(
        "[[scatter]]\nname = \"ferns\"\nradius = 2.0\nkinds = [{ name = \"a\", weight = 0 }]\n",
    );
    refused(
        &doc,
        "scatter[3].kinds",
        "weight of at least 1",
        Some((7, 9)),
    );
    let doc = on_default(
        "[[scatter]]\nname = \"ferns\"\nradius = 2.0\nkinds = [{ name = \"a\" }, { name = \"a\" }]\n",
    );
    refused(
        &doc,
        "scatter[3].kinds[1].name",
        "each kind name at most once",
        Some((7, 35)),
    );
}
