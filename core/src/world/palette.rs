//! A world's blocks ([`Palette`]): for every id its name and [`BlockProps`], in the order the
//! definition listed them. Ids are part of the output format (digests hash them): a definition
//! may only append blocks if its stored chunks are to stay readable.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::world::block::{self, BlockId, BlockProps, Shape, Surface};

/// Most blocks a palette may hold (ids `0..=65534`; 65535 stays free as "no block").
pub const MAX_BLOCKS: usize = 65_535;

/// The blocks of a world, indexed by [`BlockId`]. Block 0 is the empty block (air).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Palette {
    names: Vec<String>,
    props: Vec<BlockProps>,
    /// Opacity (low byte) and emission (high byte) per id, padded with opaque entries to a power
    /// of two so light reads it with a mask instead of a bounds check.
    light: Vec<u16>,
}

/// Why a block list was refused (the first problem found; definition parsers report every
/// problem with its path before they get here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaletteError {
    /// No blocks, or more than [`MAX_BLOCKS`].
    Count(usize),
    /// Block 0 must be the empty block: drawn as nothing, not solid, no fluid, opacity 0.
    FirstNotEmpty,
    /// A name that is empty or not `[a-z0-9_]`.
    Name(BlockId),
    /// Two blocks with one name (the second's id).
    Duplicate(BlockId),
    /// Properties that contradict each other (the id and what is wrong).
    Props(BlockId, &'static str),
}

impl fmt::Display for PaletteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PaletteError::Count(n) => write!(f, "{} blocks: need 1..={}", n, MAX_BLOCKS),
            PaletteError::FirstNotEmpty => write!(
                f,
                "block 0 must be the empty block (shape none, not solid, not a fluid, opacity 0)"
            ),
            PaletteError::Name(id) => write!(f, "block {}: name must be [a-z0-9_]+", id),
            PaletteError::Duplicate(id) => write!(f, "block {}: duplicate name", id),
            PaletteError::Props(id, why) => write!(f, "block {}: {}", id, why),
        }
    }
}

/// What is wrong with one block's properties, if anything: the rules the light and the
/// mesher rely on.
pub fn props_problem(p: &BlockProps) -> Option<&'static str> {
    if p.emission > 15 || p.opacity > 15 {
        return Some("emission and opacity must be 0..=15");
    }
    if p.solid && p.liquid {
        return Some("a block cannot be solid and a fluid");
    }
    if (p.shape == Shape::Fluid) != p.liquid {
        return Some("a fluid is drawn with shape fluid, and only a fluid");
    }
    // A block that stops all light is drawn as an opaque cube, so every face it hides is an
    // unlit one; what is not drawn lets light through.
    if p.opacity == 15 && !p.is_occluder() {
        return Some("opacity 15 needs shape cube on the opaque surface");
    }
    if p.shape == Shape::None && p.opacity != 0 {
        return Some("a block drawn as nothing must have opacity 0");
    }
    if p.leaves && p.surface != Surface::Cutout {
        return Some("leaves are drawn on the cutout surface");
    }
    None
}

/// Whether `p` may be block 0, the empty block: drawn as nothing, not solid, not a fluid,
/// opacity 0.
pub fn is_empty_block(p: &BlockProps) -> bool {
    p.shape == Shape::None && !p.solid && !p.liquid && p.opacity == 0
}

/// Whether `name` is a valid block, biome or feature name (`[a-z0-9_]+`).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

impl Palette {
    /// A palette from `(name, properties)` in id order, checked.
    pub fn new(blocks: Vec<(String, BlockProps)>) -> Result<Palette, PaletteError> {
        if blocks.is_empty() || blocks.len() > MAX_BLOCKS {
            return Err(PaletteError::Count(blocks.len()));
        }
        if !is_empty_block(&blocks[0].1) {
            return Err(PaletteError::FirstNotEmpty);
        }
        let mut sorted: Vec<(&str, usize)> = Vec::with_capacity(blocks.len());
        for (id, (name, p)) in blocks.iter().enumerate() {
            if !valid_name(name) {
                return Err(PaletteError::Name(id as BlockId));
            }
            if let Some(why) = props_problem(p) {
                return Err(PaletteError::Props(id as BlockId, why));
            }
            sorted.push((name, id));
        }
        sorted.sort_unstable();
        for w in sorted.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(PaletteError::Duplicate(w[1].1.max(w[0].1) as BlockId));
            }
        }
        let size = blocks.len().next_power_of_two().max(256);
        let mut light = alloc::vec![15u16; size];
        for (slot, (_, p)) in light.iter_mut().zip(&blocks) {
            *slot = u16::from(p.opacity) | u16::from(p.emission) << 8;
        }
        let (names, props) = blocks.into_iter().unzip();
        Ok(Palette {
            names,
            props,
            light,
        })
    }

    /// The built-in blocks ([`block::BUILTIN`]): the `default` world's palette.
    pub fn builtin() -> Palette {
        let rows = block::BUILTIN
            .iter()
            .map(|(n, p)| (String::from(*n), *p))
            .collect();
        match Palette::new(rows) {
            Ok(p) => p,
            // The built-in table is checked by a test; this cannot happen.
            Err(_) => unreachable!("the built-in block table is valid"),
        }
    }

    /// Number of block ids.
    pub fn len(&self) -> usize {
        self.props.len()
    }

    /// Never true (block 0 always exists); for clippy's `len` rule.
    pub fn is_empty(&self) -> bool {
        self.props.is_empty()
    }

    /// Properties of `id` (`None` outside the palette).
    pub fn get(&self, id: BlockId) -> Option<&BlockProps> {
        self.props.get(id as usize)
    }

    /// Properties of `id`, unknown ids read as block 0 (the generator never produces them).
    #[inline]
    pub fn props(&self, id: BlockId) -> &BlockProps {
        match self.props.get(id as usize) {
            Some(p) => p,
            None => &self.props[0],
        }
    }

    /// The name of `id` (`None` outside the palette).
    pub fn name(&self, id: BlockId) -> Option<&str> {
        self.names.get(id as usize).map(|s| s.as_str())
    }

    /// The id of the block named `name`.
    pub fn by_name(&self, name: &str) -> Option<BlockId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as BlockId)
    }

    /// Every block in id order: `(name, properties)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &BlockProps)> + '_ {
        self.names.iter().map(|s| s.as_str()).zip(self.props.iter())
    }

    /// Opacity (low byte) and emission (high byte) per id; index with `id & mask` where mask is
    /// the table's length − 1 (ids beyond the palette read as opaque).
    #[inline]
    pub fn light_table(&self) -> &[u16] {
        &self.light
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::block::*;

    #[test]
    fn builtin_table_is_consistent() {
        let p = Palette::builtin();
        assert_eq!(p.name(STONE), Some("stone"));
        assert_eq!(p.name(COBBLESTONE_WALL), Some("cobblestone_wall"));
        assert!(p.get(p.len() as BlockId).is_none());
        assert!(p.props(WATER).liquid && p.props(LAVA).emission == 15);
        assert!(p.props(OAK_LEAVES).leaves && p.props(OAK_LEAVES).opacity == 1);
        assert_eq!(p.props(9999), p.props(AIR));
        assert_eq!(p.by_name("oak_leaves"), Some(OAK_LEAVES));
        assert_eq!(p.by_name("unobtainium"), None);
        for (id, (_, b)) in p.iter().enumerate() {
            assert_eq!(b.shape == Shape::None, id == AIR as usize);
            // Blended surfaces carry alpha; the others are opaque colours.
            assert_eq!(
                b.surface == Surface::Translucent,
                b.colour[3] < 255 && id != 0
            );
        }
        let t = p.light_table();
        assert!(t.len().is_power_of_two());
        assert_eq!(t[LAVA as usize], 1 | 15 << 8);
        assert_eq!(t[p.len()], 15);
    }

    #[test]
    fn bad_palettes_are_refused() {
        let ok = |n: &str, p: BlockProps| (String::from(n), p);
        let air = BUILTIN[0].1;
        let stone = BUILTIN[STONE as usize].1;
        assert_eq!(Palette::new(Vec::new()), Err(PaletteError::Count(0)));
        assert_eq!(
            Palette::new(alloc::vec![ok("stone", stone)]),
            Err(PaletteError::FirstNotEmpty)
        );
        assert_eq!(
            Palette::new(alloc::vec![ok("air", air), ok("Stone", stone)]),
            Err(PaletteError::Name(1))
        );
        assert_eq!(
            Palette::new(alloc::vec![ok("air", air), ok("a", stone), ok("a", stone)]),
            Err(PaletteError::Duplicate(2))
        );
        let see_through = BlockProps {
            shape: Shape::Cross,
            ..stone
        };
        assert!(matches!(
            Palette::new(alloc::vec![ok("air", air), ok("x", see_through)]),
            Err(PaletteError::Props(1, _))
        ));
        let hot = BlockProps {
            emission: 16,
            ..stone
        };
        assert!(matches!(
            Palette::new(alloc::vec![ok("air", air), ok("x", hot)]),
            Err(PaletteError::Props(1, _))
        ));
    }
}
