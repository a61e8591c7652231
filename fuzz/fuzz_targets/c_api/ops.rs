//! The calls a fuzz input makes: each `Op` is one `sg_*` call (or a short sequence the
//! API documents, such as a size query then its copy) with its arguments, handles among
//! them as a `Handle` the target resolves to live, stale, foreign, NULL or raw ones.

use arbitrary::Arbitrary;

/// A handle argument.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub(crate) enum Handle {
    /// The n-th handle of its kind made by this input (live, or destroyed: stale).
    Made(u8),
    /// The n-th handle of another kind made by this input.
    OtherKind(u8),
    /// NULL.
    Null,
    /// Any token at all.
    Raw(u16),
}

#[derive(Arbitrary, Debug)]
pub(crate) enum Op {
    Create {
        seed: i8,
        tall: bool,
    },
    CreateFromPreset {
        preset: u8,
        seed: i8,
    },
    Destroy(Handle),
    Request {
        w: Handle,
        x: i8,
        z: i8,
        status: u8,
        priority: u8,
    },
    Release {
        w: Handle,
        ticket: u8,
    },
    Take {
        w: Handle,
        cap: u8,
    },
    Run(Handle),
    Info(Handle),
    Finish {
        w: Handle,
        t: Handle,
    },
    RunInline {
        w: Handle,
        max: u8,
    },
    Pending(Handle),
    Status {
        w: Handle,
        x: i8,
        z: i8,
    },
    Copy {
        w: Handle,
        x: i8,
        z: i8,
        what: u8,
        kind: u8,
        cap: u16,
    },
    Digest {
        w: Handle,
        x: i8,
        z: i8,
    },
    View {
        w: Handle,
        x: i8,
        z: i8,
    },
    Source {
        w: Handle,
        x: i8,
        z: i8,
    },
    Build {
        s: Handle,
        mode: u8,
        missing: u8,
    },
    ReadMesh {
        m: Handle,
        surface: u8,
    },
    DestroySource(Handle),
    DestroyMesh(Handle),
    Save {
        w: Handle,
        x: i8,
        z: i8,
    },
    Load {
        w: Handle,
        record: u8,
        flip: Option<(u16, u8)>,
    },
    Palette {
        w: Handle,
        id: u16,
        name: u8,
    },
    SetBlock {
        w: Handle,
        x: i16,
        y: i16,
        z: i16,
        block: u16,
    },
    SetBlocks {
        w: Handle,
        edits: Vec<(i16, i16, i16, u16)>,
        null: bool,
    },
    Block {
        w: Handle,
        x: i16,
        y: i16,
        z: i16,
    },
    Changed {
        w: Handle,
        cap: u8,
    },
    SaveEdits {
        w: Handle,
        x: i8,
        z: i8,
    },
    LoadEdits {
        w: Handle,
        record: u8,
        flip: Option<(u16, u8)>,
    },
    NoiseCreate {
        octaves: u8,
        frequency: f64,
    },
    NoiseFill {
        n: Handle,
        width: u8,
        height: u8,
        x0: f64,
    },
    NoiseSample {
        n: Handle,
        x: f64,
        y: f64,
    },
    NoiseDestroy(Handle),
}
