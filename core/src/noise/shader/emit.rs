//! Printing a [`Program`] as WGSL, GLSL ES 3.0 or Godot shading language: one `let` per
//! operation, in order. The languages differ only in the spellings here (types, literals,
//! selections, bit casts, declarations); the operations are the program's.

use alloc::format;
use alloc::string::String;
use core::fmt::Write;

use super::ir::{Op, Program, Ty, V};
use super::{function_name, ShaderLanguage};

fn ty(lang: ShaderLanguage, t: Ty) -> &'static str {
    match (lang, t) {
        (ShaderLanguage::Wgsl, Ty::F) => "f32",
        (ShaderLanguage::Wgsl, Ty::U) => "u32",
        (_, Ty::F) => "float",
        (_, Ty::U) => "uint",
        (_, Ty::B) => "bool",
    }
}

/// An `f32` constant, exactly: a decimal where its shortest form is the value itself
/// (0.5, 70.0), else its bits (a decimal the compiler rounds could round twice).
fn float(lang: ShaderLanguage, x: f32) -> String {
    let text = format!("{:?}", x);
    let exact = text.parse::<f64>().map_or(false, |d| d == f64::from(x));
    if exact && x.is_finite() && !text.contains('e') {
        text
    } else {
        match lang {
            ShaderLanguage::Wgsl => format!("bitcast<f32>({}u)", x.to_bits()),
            _ => format!("uintBitsToFloat({}u)", x.to_bits()),
        }
    }
}

fn v(x: V) -> String {
    format!("v{}", x.0)
}

/// Whether op `i` is printed inside the [`Op::Opaque`] that is its one use (a literal or
/// an arithmetic operation), rather than on a line of its own.
fn inlined(prog: &Program, uses: &[u32], i: usize) -> bool {
    uses[i] == 1
        && matches!(
            prog.ops[i].1,
            Op::LitF(_) | Op::FAdd(..) | Op::FSub(..) | Op::FMul(..)
        )
}

/// Whether op `i` feeds the [`Op::Opaque`] right after it (which then prints it; the
/// builder puts an operation's opaque form next to it).
fn is_opaque_operand(prog: &Program, i: usize) -> bool {
    matches!(prog.ops.get(i + 1), Some((_, Op::Opaque(a, _))) if a.0 as usize == i)
}

/// How many operations read each value.
fn use_counts(prog: &Program) -> alloc::vec::Vec<u32> {
    let mut uses = alloc::vec![0u32; prog.ops.len()];
    let mut read = |x: V| uses[x.0 as usize] += 1;
    for (_, op) in &prog.ops {
        match *op {
            Op::LitF(_) | Op::LitU(_) | Op::Arg(_) => {}
            Op::Floor(a)
            | Op::Sqrt(a)
            | Op::UToF(a)
            | Op::Shr(a, _)
            | Op::Shl(a, _)
            | Op::Not(a)
            | Op::FBits(a)
            | Op::BitsF(a)
            | Op::CellU(a)
            | Op::SarF(a, _) => read(a),
            Op::FAdd(a, c)
            | Op::FSub(a, c)
            | Op::FMul(a, c)
            | Op::UAdd(a, c)
            | Op::UMul(a, c)
            | Op::Xor(a, c)
            | Op::And(a, c)
            | Op::UMin(a, c)
            | Op::FLt(a, c)
            | Op::FGe(a, c)
            | Op::FGt(a, c)
            | Op::ULt(a, c)
            | Op::UEq(a, c)
            | Op::BAnd(a, c)
            | Op::BOr(a, c)
            | Op::Opaque(a, c) => {
                read(a);
                read(c);
            }
            Op::Sel(c, a, b) => {
                read(c);
                read(a);
                read(b);
            }
        }
    }
    if let Some(r) = prog.result {
        read(r);
    }
    uses
}

/// The expression of an [`Op::Opaque`]: its operand's bits (inlined where it is a literal
/// or arithmetic used only here) xored with the zero.
fn opaque(lang: ShaderLanguage, prog: &Program, uses: &[u32], a: V, zero: V) -> String {
    let wgsl = lang == ShaderLanguage::Wgsl;
    let i = a.0 as usize;
    let bits = match prog.ops[i].1 {
        Op::LitF(x) if inlined(prog, uses, i) => format!("{}u", x.to_bits()),
        ref op if inlined(prog, uses, i) => {
            let e = expr(lang, prog, uses, op);
            if wgsl {
                format!("bitcast<u32>({})", e)
            } else {
                format!("floatBitsToUint({})", e)
            }
        }
        _ if wgsl => format!("bitcast<u32>({})", v(a)),
        _ => format!("floatBitsToUint({})", v(a)),
    };
    if wgsl {
        format!("bitcast<f32>({} ^ {})", bits, v(zero))
    } else {
        format!("uintBitsToFloat({} ^ {})", bits, v(zero))
    }
}

fn expr(lang: ShaderLanguage, prog: &Program, uses: &[u32], op: &Op) -> String {
    let wgsl = lang == ShaderLanguage::Wgsl;
    let bin = |a: V, o: &str, c: V| format!("{} {} {}", v(a), o, v(c));
    match *op {
        Op::LitF(x) => float(lang, x),
        Op::LitU(x) => format!("{}u", x),
        Op::Arg(k) => format!("p.{}", ["x", "y", "z"][k as usize]),
        Op::FAdd(a, c) | Op::UAdd(a, c) => bin(a, "+", c),
        Op::FSub(a, c) => bin(a, "-", c),
        Op::FMul(a, c) | Op::UMul(a, c) => bin(a, "*", c),
        Op::Floor(a) => format!("floor({})", v(a)),
        Op::Sqrt(a) => format!("sqrt({})", v(a)),
        Op::UToF(a) if wgsl => format!("f32({})", v(a)),
        Op::UToF(a) => format!("float({})", v(a)),
        Op::Xor(a, c) => bin(a, "^", c),
        Op::And(a, c) => bin(a, "&", c),
        Op::UMin(a, c) => format!("min({}, {})", v(a), v(c)),
        Op::Shr(a, k) => format!("{} >> {}u", v(a), k),
        Op::Shl(a, k) => format!("{} << {}u", v(a), k),
        Op::FLt(a, c) | Op::ULt(a, c) => bin(a, "<", c),
        Op::FGe(a, c) => bin(a, ">=", c),
        Op::FGt(a, c) => bin(a, ">", c),
        Op::UEq(a, c) => bin(a, "==", c),
        Op::Not(a) => format!("!{}", v(a)),
        Op::BAnd(a, c) => bin(a, "&&", c),
        Op::BOr(a, c) => bin(a, "||", c),
        Op::Sel(c, a, b) if wgsl => format!("select({}, {}, {})", v(b), v(a), v(c)),
        Op::Sel(c, a, b) => format!("{} ? {} : {}", v(c), v(a), v(b)),
        Op::FBits(a) if wgsl => format!("bitcast<u32>({})", v(a)),
        Op::FBits(a) => format!("floatBitsToUint({})", v(a)),
        Op::BitsF(a) if wgsl => format!("bitcast<f32>({})", v(a)),
        Op::BitsF(a) => format!("uintBitsToFloat({})", v(a)),
        Op::CellU(a) if wgsl => format!("bitcast<u32>(i32({}))", v(a)),
        Op::CellU(a) => format!("uint(int({}))", v(a)),
        Op::SarF(a, k) if wgsl => format!("f32(bitcast<i32>({}) >> {}u)", v(a), k),
        Op::SarF(a, k) => format!("float(int({}) >> {})", v(a), k),
        Op::Opaque(a, zero) => opaque(lang, prog, uses, a, zero),
    }
}

/// The program as one function of the language, preceded by `header` comment lines.
pub(crate) fn function(lang: ShaderLanguage, prog: &Program, header: &[String]) -> String {
    let mut s = String::new();
    for line in header {
        let _ = writeln!(s, "// {}", line);
    }
    let name = function_name(prog.dims);
    let _ = match (lang, prog.dims) {
        (ShaderLanguage::Wgsl, 3) => writeln!(s, "fn {}(p: vec3<f32>) -> f32 {{", name),
        (ShaderLanguage::Wgsl, _) => writeln!(s, "fn {}(p: vec2<f32>) -> f32 {{", name),
        (_, 3) => writeln!(s, "float {}(vec3 p) {{", name),
        (_, _) => writeln!(s, "float {}(vec2 p) {{", name),
    };
    let uses = use_counts(prog);
    for (i, (t, op)) in prog.ops.iter().enumerate() {
        if inlined(prog, &uses, i) && is_opaque_operand(prog, i) {
            continue;
        }
        let e = expr(lang, prog, &uses, op);
        let _ = match lang {
            ShaderLanguage::Wgsl => writeln!(s, "    let v{}: {} = {};", i, ty(lang, *t), e),
            _ => writeln!(s, "    {} v{} = {};", ty(lang, *t), i, e),
        };
    }
    let result = prog.result.map_or_else(|| String::from("0.0"), v);
    let _ = writeln!(s, "    return {};\n}}", result);
    s
}
