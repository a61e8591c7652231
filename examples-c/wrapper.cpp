// The C++17 wrapper (stratagen.hpp): generate a square of chunks with stratagen::World and
// print "chunk X Z DIGEST" for each, then check what the wrapper promises: errors arrive as
// exceptions with the C API's codes, copies agree with borrowed views, a fill equals its
// point samples rounded to float, edit records round-trip, moved handles stay usable.
// Ends with "wrapper: N passed, M failed" and exits 1 if any check failed.
//
// usage: wrapper SEED RADIUS
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "stratagen.hpp"

namespace {

int passed = 0, failed = 0;

void expect(bool ok, const char* what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        std::fprintf(stderr, "FAILED: %s\n", what);
    }
}

// The code of the stratagen::Error that `call` throws, or SG_RESULT_OK if it throws none.
template <class F>
sg_result code_of(F call) {
    try {
        call();
    } catch (const stratagen::Error& e) {
        return e.code();
    }
    return SG_RESULT_OK;
}

void generate(stratagen::World& world, int radius) {
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) world.request(x, z);
    while (world.run_inline(256) > 0) {
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: wrapper SEED RADIUS\n");
        return 2;
    }
    try {
        stratagen::check_version();
        sg_world_def def = sg_world_def_default();
        def.seed = std::strtoll(argv[1], nullptr, 10);
        const int radius = std::atoi(argv[2]);

        stratagen::World first(def);
        stratagen::World world = std::move(first);  // the handle moves; the world is the same
        generate(world, radius);
        for (int z = -radius; z <= radius; z++)
            for (int x = -radius; x <= radius; x++)
                std::printf("chunk %d %d %016" PRIx64 "\n", x, z, world.digest(x, z));

        // A copy and a borrowed view of one chunk hold the same blocks.
        std::vector<std::uint16_t> blocks = world.blocks(0, 0);
        sg_chunk_view view = world.view(0, 0);
        expect(blocks.size() == view.block_count && blocks.size() == 16u * 16u * def.height,
               "blocks() holds the chunk's 16 x 16 x height blocks");
        expect(std::memcmp(blocks.data(), view.blocks, blocks.size() * sizeof blocks[0]) == 0,
               "blocks() equals the borrowed view");
        expect(world.chunk_status(0, 0) == SG_STATUS_FULL, "a generated chunk is full");
        expect(world.chunk_status(radius + 1000, 0) == SG_STATUS_EMPTY, "an absent chunk is empty");
        expect(world.light(0, 0, SG_LIGHT_SKY).size() == view.light_bytes, "light() size");
        expect(world.heightmap(0, 0, SG_HEIGHTMAP_WORLD_SURFACE).size() == 256, "heightmap() size");

        // Meshes: a source shares the chunk, a build is a handle of its own.
        stratagen::Mesh mesh = world.mesh_source(0, 0).build();
        stratagen::MeshSurface opaque = mesh.surface(SG_SURFACE_OPAQUE);
        expect(!opaque.indices.empty() && opaque.indices.size() == opaque.positions.size() / 3 / 4 * 6,
               "the opaque surface has 6 indices per 4 vertices");
        std::printf("mesh 0 0 %016" PRIx64 "\n", mesh.digest());

        // Errors: the C API's codes, as exceptions.
        expect(code_of([&] { world.blocks(radius + 1000, 0); }) == SG_RESULT_NOT_READY,
               "an absent chunk's blocks: NOT_READY");
        expect(code_of([&] { world.set_block(0, 100000, 0, 1); }) == SG_RESULT_OUT_OF_RANGE,
               "an edit above the world: OUT_OF_RANGE");
        sg_world_def tall = sg_world_def_default();
        tall.height = 17;
        expect(code_of([&] { stratagen::World bad(tall); }) == SG_RESULT_INVALID_ARGUMENT,
               "a height that is not a multiple of 16: INVALID_ARGUMENT");
        sg_noise_def silent = sg_noise_def_default();
        silent.octaves = 0;
        expect(code_of([&] { stratagen::Noise bad(silent); }) == SG_RESULT_INVALID_ARGUMENT,
               "zero octaves: INVALID_ARGUMENT");
        bool named = false;
        try {
            stratagen::World::from_definition("format = 1\nname = \"bad\"\nbase = \"default\"\n"
                                              "[terrain]\nstone = \"granite\"\n");
        } catch (const stratagen::DefinitionError& e) {
            named = e.code() == SG_RESULT_INVALID_DEFINITION && std::strstr(e.what(), "5:") != nullptr;
        }
        expect(named, "a bad definition throws a DefinitionError naming its line");
        expect(stratagen::World::from_definition(stratagen::World::preset("default"), def).definition_digest() ==
                   world.definition_digest(),
               "the default preset's text makes the default world");

        // Edits: all or none, and records that load into another world.
        const std::uint16_t stone = static_cast<std::uint16_t>(world.block_by_name("stone"));
        const std::uint16_t before = world.block(3, 70, 3);
        const sg_block_edit batch[] = {{3, 70, 3, stone}, {3, 100000, 3, stone}};
        bool indexed = false;
        try {
            world.set_blocks(batch);
        } catch (const stratagen::EditError& e) {
            indexed = e.index() == 1 && e.code() == SG_RESULT_OUT_OF_RANGE;
        }
        expect(indexed, "a batch with a refused edit throws an EditError naming it");
        expect(world.block(3, 70, 3) == before, "a refused batch changes nothing");
        world.set_block(3, 70, 3, stone);
        std::vector<std::uint8_t> record = world.save_edits(0, 0);
        stratagen::World other(def);
        sg_chunk_pos at = other.load_edits(record);
        expect(at.x == 0 && at.z == 0 && other.block(3, 70, 3) == stone,
               "an edit record loads into another world");

        // Noise: a fill equals the point samples rounded to float.
        sg_noise_def nd = sg_noise_def_default();
        nd.seed = def.seed;
        stratagen::Noise noise(nd);
        const sg_grid2 grid{-3.5, 7.25, 1.5, 2.0, 8, 4};
        std::vector<float> fill = noise.fill(grid);
        bool same = fill.size() == 32;
        for (std::uint32_t j = 0; same && j < grid.height; j++)
            for (std::uint32_t i = 0; i < grid.width; i++)
                same = same && fill[j * grid.width + i] ==
                                   static_cast<float>(noise.sample(grid.x0 + i * grid.dx, grid.y0 + j * grid.dy));
        expect(same, "a fill equals its point samples");
        sg_noise_def single = nd;
        single.precision = SG_PRECISION_F32;
        expect(stratagen::Noise(single).shader(SG_SHADER_LANGUAGE_WGSL, 2).find("sg_noise_2d") != std::string::npos,
               "a shader names its function");
    } catch (const stratagen::Error& e) {
        std::fprintf(stderr, "unexpected error %u: %s\n", static_cast<unsigned>(e.code()), e.what());
        return 1;
    }
    std::printf("wrapper: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
