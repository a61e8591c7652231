//! Feature ids: the global feature list, in a fixed order. A feature's position in this list
//! is its index in `feature_seed(decoration, index, step)` (DESIGN §2 rule 4), so the list is
//! part of the output contract: append, never reorder.

/// A feature of the decoration steps, numbered by its position in the global list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum FeatureId {
    /// Mossy boulders in cold, rugged biomes.
    Boulder = 0,
    /// Coal ore veins.
    OreCoal = 1,
    /// Copper ore veins.
    OreCopper = 2,
    /// Diamond ore veins.
    OreDiamond = 3,
    /// Gold ore veins.
    OreGold = 4,
    /// Iron ore veins.
    OreIron = 5,
    /// Trees by biome.
    Tree = 6,
    /// Cactus in deserts.
    Cactus = 7,
    /// Short grass and ferns.
    Grass = 8,
    /// Flowers.
    Flowers = 9,
    /// Dead bushes in deserts.
    DeadBush = 10,
    /// Structure pieces (placed by `structure`, step 0).
    StructurePieces = 11,
}

impl FeatureId {
    /// Every feature in list order.
    pub const ALL: [FeatureId; 12] = [
        FeatureId::Boulder,
        FeatureId::OreCoal,
        FeatureId::OreCopper,
        FeatureId::OreDiamond,
        FeatureId::OreGold,
        FeatureId::OreIron,
        FeatureId::Tree,
        FeatureId::Cactus,
        FeatureId::Grass,
        FeatureId::Flowers,
        FeatureId::DeadBush,
        FeatureId::StructurePieces,
    ];

    /// The index that seeds this feature (its position in [`FeatureId::ALL`]).
    pub fn index(self) -> i32 {
        self as i32
    }

    /// The decoration step the feature runs in.
    pub fn step(self) -> i32 {
        match self {
            FeatureId::StructurePieces => 0,
            FeatureId::Boulder => 1,
            FeatureId::OreCoal
            | FeatureId::OreCopper
            | FeatureId::OreDiamond
            | FeatureId::OreGold
            | FeatureId::OreIron => 2,
            FeatureId::Tree | FeatureId::Cactus => 3,
            FeatureId::Grass | FeatureId::Flowers | FeatureId::DeadBush => 4,
        }
    }

    /// Lower-case name (as in world definitions).
    pub fn name(self) -> &'static str {
        match self {
            FeatureId::Boulder => "boulder",
            FeatureId::OreCoal => "ore_coal",
            FeatureId::OreCopper => "ore_copper",
            FeatureId::OreDiamond => "ore_diamond",
            FeatureId::OreGold => "ore_gold",
            FeatureId::OreIron => "ore_iron",
            FeatureId::Tree => "tree",
            FeatureId::Cactus => "cactus",
            FeatureId::Grass => "grass",
            FeatureId::Flowers => "flowers",
            FeatureId::DeadBush => "dead_bush",
            FeatureId::StructurePieces => "structure_pieces",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list as it was when features were selected by name (the seeds depend on it):
    /// (name, step) in index order.
    #[test]
    fn list_order_and_steps_are_the_contract() {
        let expected = [
            ("boulder", 1),
            ("ore_coal", 2),
            ("ore_copper", 2),
            ("ore_diamond", 2),
            ("ore_gold", 2),
            ("ore_iron", 2),
            ("tree", 3),
            ("cactus", 3),
            ("grass", 4),
            ("flowers", 4),
            ("dead_bush", 4),
            ("structure_pieces", 0),
        ];
        for (k, f) in FeatureId::ALL.iter().enumerate() {
            assert_eq!(f.index(), k as i32);
            assert_eq!((f.name(), f.step()), expected[k]);
        }
    }
}
