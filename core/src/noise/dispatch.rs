/// Expands `$body` once per (noise type, fractal type) pair with `B` and `S` bound to types
/// (and any extra type arguments given after them).
macro_rules! dispatch {
    ($self:expr, $body:ident $(::<$($extra:ty),*>)? ( $($arg:expr),* )) => {
        match ($self.noise_type, $self.fractal) {
            ($crate::noise::def::NoiseType::Value, $crate::noise::def::FractalType::None | $crate::noise::def::FractalType::Fbm) => $body::<$crate::noise::lattice::Value, $crate::noise::fractal::Fbm $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Value, $crate::noise::def::FractalType::Ridged) => $body::<$crate::noise::lattice::Value, $crate::noise::fractal::Ridged $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Value, $crate::noise::def::FractalType::Billow) => $body::<$crate::noise::lattice::Value, $crate::noise::fractal::Billow $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Perlin, $crate::noise::def::FractalType::None | $crate::noise::def::FractalType::Fbm) => $body::<$crate::noise::lattice::Perlin, $crate::noise::fractal::Fbm $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Perlin, $crate::noise::def::FractalType::Ridged) => $body::<$crate::noise::lattice::Perlin, $crate::noise::fractal::Ridged $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Perlin, $crate::noise::def::FractalType::Billow) => $body::<$crate::noise::lattice::Perlin, $crate::noise::fractal::Billow $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Simplex, $crate::noise::def::FractalType::None | $crate::noise::def::FractalType::Fbm) => $body::<$crate::noise::fractal::Simplex, $crate::noise::fractal::Fbm $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Simplex, $crate::noise::def::FractalType::Ridged) => $body::<$crate::noise::fractal::Simplex, $crate::noise::fractal::Ridged $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Simplex, $crate::noise::def::FractalType::Billow) => $body::<$crate::noise::fractal::Simplex, $crate::noise::fractal::Billow $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Cellular, $crate::noise::def::FractalType::None | $crate::noise::def::FractalType::Fbm) => $body::<$crate::noise::fractal::Cellular, $crate::noise::fractal::Fbm $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Cellular, $crate::noise::def::FractalType::Ridged) => $body::<$crate::noise::fractal::Cellular, $crate::noise::fractal::Ridged $($(, $extra)*)?>($($arg),*),
            ($crate::noise::def::NoiseType::Cellular, $crate::noise::def::FractalType::Billow) => $body::<$crate::noise::fractal::Cellular, $crate::noise::fractal::Billow $($(, $extra)*)?>($($arg),*),
        }
    };
}
