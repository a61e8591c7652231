/* Stratagen C++17 wrapper: RAII handles over the C API in stratagen.h, header-only.
 *
 * Every function here calls the C function of the same name and does nothing else: a
 * result other than SG_RESULT_OK becomes a stratagen::Error (the code and the library's
 * message), a handle is destroyed by its destructor, and arrays the C API copies out are
 * returned as std::vector (or written into a caller's View). Thread rules are the C API's:
 * a World is used from its owner thread; Noise, Mesh and MeshSource from any thread.
 *
 *     stratagen::World world;                        // seed 0, the default settings
 *     world.request(0, 0);
 *     while (world.chunk_status(0, 0) != SG_STATUS_FULL) world.run_inline(64);
 *     std::vector<uint16_t> blocks = world.blocks(0, 0);
 */
#ifndef STRATAGEN_HPP
#define STRATAGEN_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "stratagen.h"

namespace stratagen {

/** A C API result other than SG_RESULT_OK. */
class Error : public std::runtime_error {
public:
    explicit Error(sg_result code) : Error(code, sg_result_message(code)) {}
    Error(sg_result code, const std::string& message) : std::runtime_error(message), code_(code) {}
    /** The C API's result code. */
    sg_result code() const noexcept { return code_; }

private:
    sg_result code_;
};

/** SG_RESULT_INVALID_DEFINITION: what() holds every problem, one `line:column: path: what`
 * per line. */
class DefinitionError : public Error {
public:
    explicit DefinitionError(const std::string& problems)
        : Error(SG_RESULT_INVALID_DEFINITION, problems) {}
};

/** A refused `World::set_blocks`: the index of the first refused edit (none was applied). */
class EditError : public Error {
public:
    EditError(sg_result code, std::size_t index) : Error(code), index_(index) {}
    std::size_t index() const noexcept { return index_; }

private:
    std::size_t index_;
};

/** Throws the Error of `result` unless it is SG_RESULT_OK. */
inline void check(sg_result result) {
    if (result != SG_RESULT_OK) throw Error(result);
}

/** The library version, as (major << 16) | (minor << 8) | patch. */
inline std::uint32_t library_version() noexcept { return sg_version(); }

/** The version of the header this program was compiled with, in sg_version()'s form. */
constexpr std::uint32_t header_version() noexcept {
    return (std::uint32_t{SG_VERSION_MAJOR} << 16) | (std::uint32_t{SG_VERSION_MINOR} << 8) |
           std::uint32_t{SG_VERSION_PATCH};
}

/** Throws unless the linked library has this header's major version and is not older than
 * it in minor and patch (the C ABI only grows within a major version). */
inline void check_version() {
    const std::uint32_t lib = library_version(), hdr = header_version();
    if ((lib >> 16) != (hdr >> 16) || (lib & 0xFFFF) < (hdr & 0xFFFF))
        throw Error(SG_RESULT_INVALID_ARGUMENT,
                    "libstratagen " + std::to_string(lib >> 16) + "." +
                        std::to_string((lib >> 8) & 0xFF) + "." + std::to_string(lib & 0xFF) +
                        " is older than its header " SG_VERSION_STRING);
}

/** A borrowed run of `T` (std::span's shape, for C++17): a pointer and a length. */
template <class T>
class View {
public:
    constexpr View() noexcept = default;
    constexpr View(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <class A>
    View(std::vector<std::remove_const_t<T>, A>& v) noexcept : data_(v.data()), size_(v.size()) {}
    template <class A>
    View(const std::vector<std::remove_const_t<T>, A>& v) noexcept
        : data_(v.data()), size_(v.size()) {}
    template <std::size_t N>
    constexpr View(T (&a)[N]) noexcept : data_(a), size_(N) {}

    constexpr T* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T* begin() const noexcept { return data_; }
    constexpr T* end() const noexcept { return data_ + size_; }
    constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

namespace detail {

/** Owns a C handle: `Destroy` runs once, on destruction; moves leave the source empty. */
template <class T, sg_result (*Destroy)(T*)>
class Handle {
public:
    Handle() noexcept = default;
    explicit Handle(T* raw) noexcept : raw_(raw) {}
    Handle(Handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            reset();
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }
    T* get() const noexcept { return raw_; }

private:
    void reset() noexcept {
        if (raw_ != nullptr) (void)Destroy(std::exchange(raw_, nullptr));
    }
    T* raw_ = nullptr;
};

/** The C API's copy-out pattern: ask the size with an empty buffer, then copy. */
template <class T, class Call>
std::vector<T> copy_out(Call call) {
    std::size_t needed = 0;
    sg_result r = call(static_cast<T*>(nullptr), std::size_t{0}, &needed);
    if (r != SG_RESULT_OK && r != SG_RESULT_BUFFER_TOO_SMALL) throw Error(r);
    std::vector<T> out(needed);
    check(call(out.data(), out.size(), &needed));
    out.resize(needed);
    return out;
}

}  // namespace detail

/** A validated noise definition (sg_noise). Any thread, by many at once. */
class Noise {
public:
    explicit Noise(const sg_noise_def& def = sg_noise_def_default()) {
        sg_noise* raw = nullptr;
        check(sg_noise_create(&def, &raw));
        handle_ = detail::Handle<sg_noise, sg_noise_destroy>(raw);
    }
    sg_noise* get() const noexcept { return handle_.get(); }

    /** sg_noise_fill_grid_2d into `out` (width * height floats). */
    void fill(const sg_grid2& grid, View<float> out) const {
        check(sg_noise_fill_grid_2d(get(), &grid, out.data(), out.size()));
    }
    std::vector<float> fill(const sg_grid2& grid) const {
        std::vector<float> out(std::size_t{grid.width} * grid.height);
        fill(grid, out);
        return out;
    }
    /** sg_noise_fill_grid_3d into `out` (width * height * depth floats). */
    void fill(const sg_grid3& grid, View<float> out) const {
        check(sg_noise_fill_grid_3d(get(), &grid, out.data(), out.size()));
    }
    std::vector<float> fill(const sg_grid3& grid) const {
        std::vector<float> out(std::size_t{grid.width} * grid.height * grid.depth);
        fill(grid, out);
        return out;
    }
    /** sg_noise_fill_heightmap: res * res samples of chunk (cx, cz). */
    std::vector<float> heightmap(std::int32_t cx, std::int32_t cz, std::uint32_t res) const {
        std::vector<float> out(std::size_t{res} * res);
        check(sg_noise_fill_heightmap(get(), cx, cz, res, out.data(), out.size()));
        return out;
    }
    double sample(double x, double y) const {
        double v = 0;
        check(sg_noise_sample_2d(get(), x, y, &v));
        return v;
    }
    double sample(double x, double y, double z) const {
        double v = 0;
        check(sg_noise_sample_3d(get(), x, y, z, &v));
        return v;
    }
    /** sg_noise_shader: the noise as GPU source in `language` with `dims` 2 or 3. */
    std::string shader(sg_shader_language language, std::uint32_t dims) const {
        std::vector<char> text = detail::copy_out<char>([&](char* buf, std::size_t cap, std::size_t* needed) {
            return sg_noise_shader(get(), language, dims, buf, cap, needed);
        });
        return std::string(text.data(), text.empty() ? 0 : text.size() - 1);
    }

private:
    detail::Handle<sg_noise, sg_noise_destroy> handle_;
};

/** One surface of a mesh in arrays of its own (sg_mesh_copy's layout). */
struct MeshSurface {
    std::vector<float> positions;
    std::vector<std::uint8_t> faces, ao, sky_light, block_light;
    std::vector<float> uvs;
    std::vector<std::uint16_t> quad_blocks;
    std::vector<std::uint32_t> indices;
};

/** A built chunk mesh (sg_mesh). Any thread. */
class Mesh {
public:
    explicit Mesh(sg_mesh* raw) noexcept : handle_(raw) {}
    sg_mesh* get() const noexcept { return handle_.get(); }

    /** Vertex and index counts of `surface`. */
    std::pair<std::size_t, std::size_t> counts(sg_surface surface) const {
        std::size_t vertices = 0, indices = 0;
        check(sg_mesh_counts(get(), surface, &vertices, &indices));
        return {vertices, indices};
    }
    /** sg_mesh_copy into the caller's arrays. */
    void copy(sg_surface surface, const sg_mesh_buffers& buffers) const {
        check(sg_mesh_copy(get(), surface, &buffers));
    }
    MeshSurface surface(sg_surface surface) const {
        const auto [vertices, indices] = counts(surface);
        MeshSurface s;
        s.positions.resize(3 * vertices);
        s.faces.resize(vertices);
        s.ao.resize(vertices);
        s.sky_light.resize(vertices);
        s.block_light.resize(vertices);
        s.uvs.resize(2 * vertices);
        s.quad_blocks.resize(vertices / 4);
        s.indices.resize(indices);
        sg_mesh_buffers b{};
        b.positions = s.positions.data();
        b.faces = s.faces.data();
        b.ao = s.ao.data();
        b.sky_light = s.sky_light.data();
        b.block_light = s.block_light.data();
        b.uvs = s.uvs.data();
        b.quad_blocks = s.quad_blocks.data();
        b.vertex_capacity = vertices;
        b.indices = s.indices.data();
        b.index_capacity = indices;
        copy(surface, b);
        return s;
    }
    std::uint64_t digest() const {
        std::uint64_t d = 0;
        check(sg_mesh_digest(get(), &d));
        return d;
    }

private:
    detail::Handle<sg_mesh, sg_mesh_destroy> handle_;
};

/** A full chunk and its full neighbours, shared for meshing (sg_mesh_source). Any thread. */
class MeshSource {
public:
    explicit MeshSource(sg_mesh_source* raw) noexcept : handle_(raw) {}
    sg_mesh_source* get() const noexcept { return handle_.get(); }

    Mesh build(const sg_mesh_def& def = sg_mesh_def_default()) const {
        sg_mesh* raw = nullptr;
        check(sg_mesh_build(get(), &def, &raw));
        return Mesh(raw);
    }

private:
    detail::Handle<sg_mesh_source, sg_mesh_source_destroy> handle_;
};

/** A task handed out by World::take_tasks (not owned: World::finish hands it back). */
class Task {
public:
    explicit Task(sg_task* raw) noexcept : raw_(raw) {}
    sg_task* get() const noexcept { return raw_; }
    /** sg_task_run. Any thread. */
    void run() const { check(sg_task_run(raw_)); }
    struct Info {
        std::int32_t cx, cz;
        sg_status status;
    };
    Info info() const {
        Info i{0, 0, SG_STATUS_EMPTY};
        std::uint32_t status = 0;
        check(sg_task_info(raw_, &i.cx, &i.cz, &status));
        i.status = static_cast<sg_status>(status);
        return i;
    }

private:
    sg_task* raw_;
};

/** Where a loaded chunk record belongs, and the status it holds (World::load_chunk). */
struct LoadedRecord {
    std::int32_t cx, cz;
    sg_status status;
};

/** A world (sg_world): its owner thread is the one that created it. */
class World {
public:
    explicit World(const sg_world_def& def = sg_world_def_default()) {
        sg_world* raw = nullptr;
        check(sg_world_create(&def, &raw));
        handle_ = detail::Handle<sg_world, sg_world_destroy>(raw);
    }
    /** sg_world_create_from_definition: a TOML or JSON document; problems throw a
     * DefinitionError listing each with its line and column. */
    static World from_definition(std::string_view text, const sg_world_def& def = sg_world_def_default()) {
        sg_world* raw = nullptr;
        std::vector<char> problems(16 * 1024);
        sg_result r = sg_world_create_from_definition(&def, text.data(), text.size(), &raw,
                                                      problems.data(), problems.size());
        if (r == SG_RESULT_INVALID_DEFINITION) throw DefinitionError(problems.data());
        check(r);
        return World(raw);
    }
    /** sg_definition_preset: the TOML text of a built-in preset. */
    static std::string preset(const std::string& name) {
        std::vector<char> text = detail::copy_out<char>([&](char* buf, std::size_t cap, std::size_t* needed) {
            return sg_definition_preset(name.c_str(), buf, cap, needed);
        });
        return std::string(text.data(), text.empty() ? 0 : text.size() - 1);
    }
    sg_world* get() const noexcept { return handle_.get(); }

    // The scheduler.
    std::uint64_t request(std::int32_t cx, std::int32_t cz, sg_status status = SG_STATUS_FULL,
                          sg_priority priority = SG_PRIORITY_IMMEDIATE) {
        std::uint64_t ticket = 0;
        check(sg_world_request(get(), cx, cz, status, priority, &ticket));
        return ticket;
    }
    void release(std::uint64_t ticket) { check(sg_world_release(get(), ticket)); }
    void set_retention(sg_retention retention) { check(sg_world_set_retention(get(), retention)); }
    /** Up to `max` ready tasks, best first: run each (any thread), then finish it here. */
    std::vector<Task> take_tasks(std::size_t max) {
        std::vector<sg_task*> raw(max);
        std::size_t count = 0;
        check(sg_world_take_tasks(get(), raw.data(), raw.size(), &count));
        return std::vector<Task>(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(count));
    }
    void finish(Task task) { check(sg_world_finish_task(get(), task.get())); }
    /** Runs up to `max` tasks on this thread; returns how many ran. */
    std::size_t run_inline(std::size_t max) {
        std::size_t ran = 0;
        check(sg_world_run_inline(get(), max, &ran));
        return ran;
    }
    /** Ready tasks and tasks in flight. */
    std::pair<std::size_t, std::size_t> pending() {
        std::size_t ready = 0, in_flight = 0;
        check(sg_world_pending(get(), &ready, &in_flight));
        return {ready, in_flight};
    }
    /** The chunk's highest completed status (SG_STATUS_EMPTY when nothing is generated). */
    sg_status chunk_status(std::int32_t cx, std::int32_t cz) {
        std::uint32_t status = 0;
        sg_result r = sg_world_chunk_status(get(), cx, cz, &status);
        if (r == SG_RESULT_NOT_READY) return SG_STATUS_EMPTY;
        check(r);
        return static_cast<sg_status>(status);
    }

    // A full chunk's outputs.
    std::vector<std::uint16_t> blocks(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<std::uint16_t>([&](std::uint16_t* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_blocks(get(), cx, cz, b, c, n);
        });
    }
    std::vector<std::uint8_t> biomes(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<std::uint8_t>([&](std::uint8_t* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_biomes(get(), cx, cz, b, c, n);
        });
    }
    std::vector<std::int32_t> heightmap(std::int32_t cx, std::int32_t cz, sg_heightmap kind) {
        return detail::copy_out<std::int32_t>([&](std::int32_t* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_heightmap(get(), cx, cz, kind, b, c, n);
        });
    }
    /** Nibble-packed: block i is byte i / 2, low nibble for even i. */
    std::vector<std::uint8_t> light(std::int32_t cx, std::int32_t cz, sg_light kind) {
        return detail::copy_out<std::uint8_t>([&](std::uint8_t* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_light(get(), cx, cz, kind, b, c, n);
        });
    }
    std::vector<sg_block_entity> block_entities(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<sg_block_entity>([&](sg_block_entity* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_block_entities(get(), cx, cz, b, c, n);
        });
    }
    std::vector<sg_spawn_request> spawns(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<sg_spawn_request>([&](sg_spawn_request* b, std::size_t c, std::size_t* n) {
            return sg_chunk_copy_spawns(get(), cx, cz, b, c, n);
        });
    }
    std::uint64_t digest(std::int32_t cx, std::int32_t cz) {
        std::uint64_t d = 0;
        check(sg_chunk_digest(get(), cx, cz, &d));
        return d;
    }
    /** A borrowed view (valid until the next scheduler or edit call on this world). */
    sg_chunk_view view(std::int32_t cx, std::int32_t cz) {
        sg_chunk_view v{};
        check(sg_world_chunk_view(get(), cx, cz, &v));
        return v;
    }
    MeshSource mesh_source(std::int32_t cx, std::int32_t cz) {
        sg_mesh_source* raw = nullptr;
        check(sg_world_mesh_source(get(), cx, cz, &raw));
        return MeshSource(raw);
    }

    // Records.
    std::vector<std::uint8_t> save_chunk(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<std::uint8_t>([&](std::uint8_t* b, std::size_t c, std::size_t* n) {
            return sg_world_save_chunk(get(), cx, cz, b, c, n);
        });
    }
    LoadedRecord load_chunk(View<const std::uint8_t> record) {
        LoadedRecord at{0, 0, SG_STATUS_EMPTY};
        std::uint32_t status = 0;
        check(sg_world_load_chunk(get(), record.data(), record.size(), &at.cx, &at.cz, &status));
        at.status = static_cast<sg_status>(status);
        return at;
    }

    // Edits.
    void set_block(std::int32_t x, std::int32_t y, std::int32_t z, std::uint16_t block) {
        check(sg_world_set_block(get(), x, y, z, block));
    }
    /** All or none: a refused edit throws an EditError naming it. */
    void set_blocks(View<const sg_block_edit> edits) {
        std::size_t failed = 0;
        sg_result r = sg_world_set_blocks(get(), edits.data(), edits.size(), &failed);
        if (r != SG_RESULT_OK) throw EditError(r, failed);
    }
    std::uint16_t block(std::int32_t x, std::int32_t y, std::int32_t z) {
        std::uint16_t b = 0;
        check(sg_world_block(get(), x, y, z, &b));
        return b;
    }
    /** The chunks to remesh since the last call. */
    std::vector<sg_chunk_pos> changed_chunks() {
        return detail::copy_out<sg_chunk_pos>([&](sg_chunk_pos* b, std::size_t c, std::size_t* n) {
            return sg_world_changed_chunks(get(), b, c, n);
        });
    }
    std::vector<std::uint8_t> save_edits(std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<std::uint8_t>([&](std::uint8_t* b, std::size_t c, std::size_t* n) {
            return sg_world_save_edits(get(), cx, cz, b, c, n);
        });
    }
    /** Applies an edit record; returns its chunk. */
    sg_chunk_pos load_edits(View<const std::uint8_t> record) {
        sg_chunk_pos at{0, 0};
        check(sg_world_load_edits(get(), record.data(), record.size(), &at.x, &at.z));
        return at;
    }

    // The world's definition and palettes.
    std::uint64_t definition_digest() {
        std::uint64_t d = 0;
        check(sg_world_definition_digest(get(), &d));
        return d;
    }
    std::uint32_t block_count() {
        std::uint32_t n = 0;
        check(sg_world_block_count(get(), &n));
        return n;
    }
    sg_block_info block_info(std::uint32_t id) {
        sg_block_info info{};
        check(sg_world_block_info(get(), id, &info));
        return info;
    }
    std::uint32_t block_by_name(const std::string& name) {
        std::uint32_t id = 0;
        check(sg_world_block_by_name(get(), name.c_str(), &id));
        return id;
    }
    std::uint32_t biome_count() {
        std::uint32_t n = 0;
        check(sg_world_biome_count(get(), &n));
        return n;
    }
    sg_biome_info biome_info(std::uint32_t id) {
        sg_biome_info info{};
        check(sg_world_biome_info(get(), id, &info));
        return info;
    }
    std::uint32_t biome_by_name(const std::string& name) {
        std::uint32_t id = 0;
        check(sg_world_biome_by_name(get(), name.c_str(), &id));
        return id;
    }

    // Scatter.
    std::uint32_t scatter_layer_count() {
        std::uint32_t n = 0;
        check(sg_world_scatter_layer_count(get(), &n));
        return n;
    }
    sg_scatter_layer_info scatter_layer_info(std::uint32_t layer) {
        sg_scatter_layer_info info{};
        check(sg_world_scatter_layer_info(get(), layer, &info));
        return info;
    }
    std::string scatter_kind_name(std::uint32_t layer, std::uint32_t kind) {
        const char* name = nullptr;
        check(sg_world_scatter_kind_name(get(), layer, kind, &name));
        return name;
    }
    std::vector<sg_scatter_instance> scatter(std::uint32_t layer, std::int32_t cx, std::int32_t cz) {
        return detail::copy_out<sg_scatter_instance>([&](sg_scatter_instance* b, std::size_t c, std::size_t* n) {
            return sg_world_scatter(get(), layer, cx, cz, b, c, n);
        });
    }

private:
    explicit World(sg_world* raw) noexcept : handle_(raw) {}
    detail::Handle<sg_world, sg_world_destroy> handle_;
};

}  // namespace stratagen

#endif /* STRATAGEN_HPP */
