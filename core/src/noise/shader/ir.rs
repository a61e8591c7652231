//! The one description every shader language is printed from: a straight-line program of
//! `f32`, `u32` and `bool` values, each operation one IEEE binary32 or wrapping 32-bit
//! integer step that WGSL, GLSL ES 3.0 and Godot's shading language all have. The same
//! program runs here on the CPU ([`Program::eval`]), which is how the tests compare it with
//! the `f32` noise bit for bit before any GPU sees it.

use alloc::vec::Vec;

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    F,
    U,
    B,
}

/// A value of the program: the index of the operation that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct V(pub u32);

/// One operation. Operands are earlier values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// An `f32` constant.
    LitF(f32),
    /// A `u32` constant.
    LitU(u32),
    /// Component `k` of the position argument.
    Arg(u8),
    FAdd(V, V),
    FSub(V, V),
    FMul(V, V),
    /// `floor` of an `f32`.
    Floor(V),
    /// Square root of an `f32` (correctly rounded on the CPU, as IEEE requires).
    Sqrt(V),
    /// `f32(x)` of a `u32` (exact below 2^24).
    UToF(V),
    UAdd(V, V),
    UMul(V, V),
    Xor(V, V),
    And(V, V),
    /// The smaller of two `u32`.
    UMin(V, V),
    Shr(V, u32),
    Shl(V, u32),
    FLt(V, V),
    FGe(V, V),
    FGt(V, V),
    ULt(V, V),
    UEq(V, V),
    Not(V),
    BAnd(V, V),
    BOr(V, V),
    /// `cond ? a : b` (operands: cond, a, b).
    Sel(V, V, V),
    /// The bits of an `f32`.
    FBits(V),
    /// A `u32`'s bits as an `f32`.
    BitsF(V),
    /// An integral `f32` (a floored lattice coordinate) as a wrapping `u32` cell index.
    CellU(V),
    /// `f32(i32(x) >> k)`: a signed shift, converted.
    SarF(V, u32),
    /// The first operand's bits xored with the second (a `u32` zero), as an `f32`: the
    /// same value, which no float rewrite sees through ([`Builder::opaque`]).
    Opaque(V, V),
}

/// A straight-line program of one position argument (2 or 3 components) and one `f32`
/// result.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    pub ops: Vec<(Ty, Op)>,
    pub result: Option<V>,
    pub dims: u8,
}

/// A value while the program runs on the CPU.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
enum Val {
    F(f32),
    U(u32),
    B(bool),
}

impl Program {
    /// Append an operation of type `ty`.
    pub fn push(&mut self, ty: Ty, op: Op) -> V {
        self.ops.push((ty, op));
        V(self.ops.len() as u32 - 1)
    }

    /// Run the program at `p` (its first `dims` components), in `f32` and wrapping `u32`
    /// arithmetic, as a GPU that neither fuses nor flushes does.
    #[cfg(test)]
    pub fn eval(&self, p: &[f32]) -> f32 {
        let mut vals: Vec<Val> = Vec::with_capacity(self.ops.len());
        for (_, op) in &self.ops {
            let f = |v: V| match vals[v.0 as usize] {
                Val::F(x) => x,
                _ => unreachable!("operand types are checked as the program is built"),
            };
            let u = |v: V| match vals[v.0 as usize] {
                Val::U(x) => x,
                _ => unreachable!("operand types are checked as the program is built"),
            };
            let b = |v: V| match vals[v.0 as usize] {
                Val::B(x) => x,
                _ => unreachable!("operand types are checked as the program is built"),
            };
            let out = match *op {
                Op::LitF(x) => Val::F(x),
                Op::LitU(x) => Val::U(x),
                Op::Arg(k) => Val::F(p[k as usize]),
                Op::FAdd(a, c) => Val::F(f(a) + f(c)),
                Op::FSub(a, c) => Val::F(f(a) - f(c)),
                Op::FMul(a, c) => Val::F(f(a) * f(c)),
                Op::Floor(a) => Val::F(libm::floorf(f(a))),
                Op::Sqrt(a) => Val::F(libm::sqrtf(f(a))),
                Op::UToF(a) => Val::F(u(a) as f32),
                Op::UAdd(a, c) => Val::U(u(a).wrapping_add(u(c))),
                Op::UMul(a, c) => Val::U(u(a).wrapping_mul(u(c))),
                Op::Xor(a, c) => Val::U(u(a) ^ u(c)),
                Op::And(a, c) => Val::U(u(a) & u(c)),
                Op::UMin(a, c) => Val::U(u(a).min(u(c))),
                Op::Shr(a, k) => Val::U(u(a) >> k),
                Op::Shl(a, k) => Val::U(u(a) << k),
                Op::FLt(a, c) => Val::B(f(a) < f(c)),
                Op::FGe(a, c) => Val::B(f(a) >= f(c)),
                Op::FGt(a, c) => Val::B(f(a) > f(c)),
                Op::ULt(a, c) => Val::B(u(a) < u(c)),
                Op::UEq(a, c) => Val::B(u(a) == u(c)),
                Op::Not(a) => Val::B(!b(a)),
                Op::BAnd(a, c) => Val::B(b(a) & b(c)),
                Op::BOr(a, c) => Val::B(b(a) | b(c)),
                Op::Sel(c, x, y) => {
                    if b(c) {
                        vals[x.0 as usize]
                    } else {
                        vals[y.0 as usize]
                    }
                }
                Op::FBits(a) => Val::U(f(a).to_bits()),
                Op::BitsF(a) => Val::F(f32::from_bits(u(a))),
                Op::CellU(a) => Val::U(f(a) as i32 as u32),
                Op::SarF(a, k) => Val::F(((u(a) as i32) >> k) as f32),
                Op::Opaque(a, z) => Val::F(f32::from_bits(f(a).to_bits() ^ u(z))),
            };
            vals.push(out);
        }
        match self.result.map(|r| vals[r.0 as usize]) {
            Some(Val::F(x)) => x,
            _ => f32::NAN,
        }
    }
}

/// Writes a [`Program`] with typed helpers, one method per operation, so that the noise
/// description reads like the Rust kernels it mirrors.
pub(crate) struct Builder {
    pub prog: Program,
    /// A `u32` that is always 0 but that no compiler can prove is
    /// (see [`Builder::guard`]).
    zero: Option<V>,
}

impl Builder {
    pub fn new(dims: u8) -> Self {
        Builder {
            prog: Program {
                dims,
                ..Program::default()
            },
            zero: None,
        }
    }

    /// From here on, pass every float result through [`Builder::opaque`], with a zero
    /// computed from `x` at run time.
    ///
    /// Why: GPU compilers treat float operations as real arithmetic unless the language
    /// can mark them exact, and WGSL, naga's SPIR-V and GLSL ES 3.0 cannot: they fuse a
    /// product and a sum into one multiply-add (rounded once), reassociate sums, factor
    /// and cancel terms (an error-free `(a + c) − a − c` becomes 0). An operation whose
    /// operands came through an integer xor matches none of those patterns, so each runs
    /// as written. The zero is `min(u, !u) >> 31` of `x`'s bits: 0 for every `u`, beyond
    /// what compilers derive.
    pub fn guard(&mut self, x: V) {
        let u = self.bits(x);
        let all = self.lu(u32::MAX);
        let not_u = self.xor(u, all);
        let m = self.uu(u, not_u, Op::UMin);
        self.zero = Some(self.shr(m, 31));
    }

    /// `x` itself, through an integer xor with the run-time zero (once [`Builder::guard`]
    /// has set it up): no float rewrite sees through it.
    pub fn opaque(&mut self, x: V) -> V {
        match self.zero {
            Some(zero) => self.prog.push(Ty::F, Op::Opaque(x, zero)),
            None => x,
        }
    }

    fn ty(&self, v: V) -> Ty {
        self.prog.ops[v.0 as usize].0
    }

    fn check(&self, v: V, ty: Ty) {
        debug_assert_eq!(self.ty(v), ty, "operand of the wrong type");
    }

    fn ff(&mut self, a: V, c: V, op: fn(V, V) -> Op) -> V {
        self.check(a, Ty::F);
        self.check(c, Ty::F);
        self.prog.push(Ty::F, op(a, c))
    }

    fn uu(&mut self, a: V, c: V, op: fn(V, V) -> Op) -> V {
        self.check(a, Ty::U);
        self.check(c, Ty::U);
        self.prog.push(Ty::U, op(a, c))
    }

    /// An `f32` constant, behind [`Builder::opaque`] once the guard is set: compilers
    /// reassociate sums with constants (`(k − b) + c` into `(k + c) − b`).
    pub fn lf(&mut self, x: f32) -> V {
        let k = self.prog.push(Ty::F, Op::LitF(x));
        self.opaque(k)
    }
    pub fn lu(&mut self, x: u32) -> V {
        self.prog.push(Ty::U, Op::LitU(x))
    }
    pub fn arg(&mut self, k: u8) -> V {
        self.prog.push(Ty::F, Op::Arg(k))
    }
    /// `a + c`, behind [`Builder::opaque`].
    pub fn add(&mut self, a: V, c: V) -> V {
        let s = self.ff(a, c, Op::FAdd);
        self.opaque(s)
    }
    /// `a − c`, behind [`Builder::opaque`].
    pub fn sub(&mut self, a: V, c: V) -> V {
        let s = self.ff(a, c, Op::FSub);
        self.opaque(s)
    }
    /// `a · c`, behind [`Builder::opaque`].
    pub fn mul(&mut self, a: V, c: V) -> V {
        let m = self.ff(a, c, Op::FMul);
        self.opaque(m)
    }
    /// `a + k`, `k` a constant.
    pub fn addk(&mut self, a: V, k: f32) -> V {
        let k = self.lf(k);
        self.add(a, k)
    }
    /// `a − k`.
    pub fn subk(&mut self, a: V, k: f32) -> V {
        let k = self.lf(k);
        self.sub(a, k)
    }
    /// `a · k`.
    pub fn mulk(&mut self, a: V, k: f32) -> V {
        let k = self.lf(k);
        self.mul(a, k)
    }
    /// `k − a`.
    pub fn ksub(&mut self, k: f32, a: V) -> V {
        let k = self.lf(k);
        self.sub(k, a)
    }
    pub fn floor(&mut self, a: V) -> V {
        self.check(a, Ty::F);
        self.prog.push(Ty::F, Op::Floor(a))
    }
    /// `sqrt(a)`, behind [`Builder::opaque`].
    pub fn sqrt(&mut self, a: V) -> V {
        self.check(a, Ty::F);
        let r = self.prog.push(Ty::F, Op::Sqrt(a));
        self.opaque(r)
    }
    /// `f32(a)` of a `u32`.
    pub fn u_to_f(&mut self, a: V) -> V {
        self.check(a, Ty::U);
        self.prog.push(Ty::F, Op::UToF(a))
    }
    pub fn uadd(&mut self, a: V, c: V) -> V {
        self.uu(a, c, Op::UAdd)
    }
    pub fn uaddk(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.uadd(a, k)
    }
    pub fn umulk(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.uu(a, k, Op::UMul)
    }
    pub fn xor(&mut self, a: V, c: V) -> V {
        self.uu(a, c, Op::Xor)
    }
    pub fn xork_u(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.xor(a, k)
    }
    pub fn andk(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.uu(a, k, Op::And)
    }
    pub fn shr(&mut self, a: V, k: u32) -> V {
        self.check(a, Ty::U);
        self.prog.push(Ty::U, Op::Shr(a, k))
    }
    pub fn shl(&mut self, a: V, k: u32) -> V {
        self.check(a, Ty::U);
        self.prog.push(Ty::U, Op::Shl(a, k))
    }
    pub fn lt(&mut self, a: V, c: V) -> V {
        self.check(a, Ty::F);
        self.check(c, Ty::F);
        self.prog.push(Ty::B, Op::FLt(a, c))
    }
    pub fn ge(&mut self, a: V, c: V) -> V {
        self.check(a, Ty::F);
        self.check(c, Ty::F);
        self.prog.push(Ty::B, Op::FGe(a, c))
    }
    pub fn gek(&mut self, a: V, k: f32) -> V {
        let k = self.lf(k);
        self.ge(a, k)
    }
    pub fn gt(&mut self, a: V, c: V) -> V {
        self.check(a, Ty::F);
        self.check(c, Ty::F);
        self.prog.push(Ty::B, Op::FGt(a, c))
    }
    pub fn gtk(&mut self, a: V, k: f32) -> V {
        let k = self.lf(k);
        self.gt(a, k)
    }
    pub fn ultk(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.prog.push(Ty::B, Op::ULt(a, k))
    }
    pub fn ueqk(&mut self, a: V, k: u32) -> V {
        let k = self.lu(k);
        self.prog.push(Ty::B, Op::UEq(a, k))
    }
    pub fn not(&mut self, a: V) -> V {
        self.check(a, Ty::B);
        self.prog.push(Ty::B, Op::Not(a))
    }
    pub fn band(&mut self, a: V, c: V) -> V {
        self.prog.push(Ty::B, Op::BAnd(a, c))
    }
    pub fn bor(&mut self, a: V, c: V) -> V {
        self.prog.push(Ty::B, Op::BOr(a, c))
    }
    /// `cond ? a : b`.
    pub fn sel(&mut self, cond: V, a: V, b: V) -> V {
        self.check(cond, Ty::B);
        let ty = self.ty(a);
        self.check(b, ty);
        self.prog.push(ty, Op::Sel(cond, a, b))
    }
    pub fn bits(&mut self, a: V) -> V {
        self.check(a, Ty::F);
        self.prog.push(Ty::U, Op::FBits(a))
    }
    pub fn float(&mut self, a: V) -> V {
        self.check(a, Ty::U);
        self.prog.push(Ty::F, Op::BitsF(a))
    }
    pub fn cell(&mut self, a: V) -> V {
        self.check(a, Ty::F);
        self.prog.push(Ty::U, Op::CellU(a))
    }
    pub fn sar_f(&mut self, a: V, k: u32) -> V {
        self.check(a, Ty::U);
        self.prog.push(Ty::F, Op::SarF(a, k))
    }
}
