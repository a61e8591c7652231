//! Checks for the generated noise shaders ([`stratagen_core::noise::Noise::shader_2d`]):
//! [`validate`] passes a shader function through naga's front end and validator, and
//! [`Gpu::run`] evaluates a WGSL function at a list of positions in a compute shader on
//! whatever Vulkan device wgpu finds (Mesa's software rasteriser lavapipe, on a machine
//! without a GPU), so that tests compare GPU samples with the CPU's.

use stratagen_core::noise::shader::function_name;
use stratagen_core::noise::ShaderLanguage;
use wgpu::util::DeviceExt;

/// Positions per workgroup of the evaluation shader.
const WORKGROUP: u32 = 64;

/// Why a check could not run or failed.
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err(context: &str, e: impl std::fmt::Display) -> Error {
    Error(format!("{context}: {e}"))
}

/// A compute shader that calls the generated `function` once per position: positions in
/// binding 0 (`vec4` each, `w` unused), results in binding 1.
fn wgsl_program(function_source: &str, dims: u8) -> String {
    let swizzle = if dims == 3 { "xyz" } else { "xy" };
    format!(
        "@group(0) @binding(0) var<storage, read> points: array<vec4<f32>>;\n\
         @group(0) @binding(1) var<storage, read_write> samples: array<f32>;\n\n\
         {function_source}\n\
         @compute @workgroup_size({WORKGROUP})\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= arrayLength(&samples)) {{ return; }}\n\
         \x20   samples[id.x] = {}(points[id.x].{swizzle});\n\
         }}\n",
        function_name(dims)
    )
}

/// The same call as a GLSL 450 compute shader, for naga's GLSL front end (which reads
/// Vulkan GLSL; GLSL ES 3.0 and Godot functions are written in the subset both share).
fn glsl_program(function_source: &str, dims: u8) -> String {
    let arg = if dims == 3 {
        "vec3(1.5, -2.25, 3.0)"
    } else {
        "vec2(1.5, -2.25)"
    };
    format!(
        "#version 450\n\
         layout(local_size_x = 1) in;\n\
         layout(std430, set = 0, binding = 0) buffer Samples {{ float samples[]; }};\n\n\
         {function_source}\n\
         void main() {{ samples[0] = {}({arg}); }}\n",
        function_name(dims)
    )
}

/// Parse and validate a generated function of `lang` (wrapped in a compute shader that
/// calls it) with naga.
pub fn validate(lang: ShaderLanguage, function_source: &str, dims: u8) -> Result<(), Error> {
    let module = match lang {
        ShaderLanguage::Wgsl => naga::front::wgsl::parse_str(&wgsl_program(function_source, dims))
            .map_err(|e| err("WGSL parse", e.emit_to_string(function_source)))?,
        ShaderLanguage::Glsl | ShaderLanguage::Godot => {
            let mut frontend = naga::front::glsl::Frontend::default();
            let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
            frontend
                .parse(&options, &glsl_program(function_source, dims))
                .map_err(|e| err("GLSL parse", format!("{e:?}")))?
        }
    };
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .map_err(|e| err("validation", format!("{e:?}")))?;
    Ok(())
}

/// A wgpu device for running shaders.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The adapter's name and driver (for reports).
    pub adapter: String,
}

impl Gpu {
    /// The first Vulkan adapter wgpu finds.
    pub fn new() -> Result<Gpu, Error> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::default(),
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        }))
        .map_err(|e| {
            err(
                "no Vulkan adapter (on a machine without a GPU, install Mesa's lavapipe: \
                 Debian's mesa-vulkan-drivers)",
                e,
            )
        })?;
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("stratagen-gpu"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::downlevel_defaults(),
            ..wgpu::DeviceDescriptor::default()
        }))
        .map_err(|e| err("request_device", e))?;
        Ok(Gpu {
            device,
            queue,
            adapter: format!("{} ({}, {})", info.name, info.driver, info.driver_info),
        })
    }

    /// Evaluate a generated WGSL function at `points` (the first `dims` components of
    /// each): one invocation per point, results read back.
    pub fn run(
        &self,
        function_source: &str,
        dims: u8,
        points: &[[f32; 3]],
    ) -> Result<Vec<f32>, Error> {
        let source = wgsl_program(function_source, dims);
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("noise"),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("noise"),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            });
        let packed: Vec<u8> = points
            .iter()
            .flat_map(|p| [p[0], p[1], p[2], 0.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        let input = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("points"),
                contents: &packed,
                usage: wgpu::BufferUsages::STORAGE,
            });
        let size = (points.len() * 4) as u64;
        let output = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("samples"),
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("noise"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: output.as_entire_binding(),
                },
            ],
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups((points.len() as u32).div_ceil(WORKGROUP), 1, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, size);
        self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| err("poll", e))?;
        let view = slice
            .get_mapped_range()
            .map_err(|e| err("read back", format!("{e:?}")))?;
        Ok(view
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}
