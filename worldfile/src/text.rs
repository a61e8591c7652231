//! TOML and JSON text to a tree of [`Node`]s with line:column, and back.

use crate::node::{Node, Value};
use crate::problem::{Pos, Problem};

/// Byte offsets to line:column (both from 1; columns count characters).
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// Per line: holds only ASCII (its columns are byte offsets; tools write whole documents
    /// on one line, so counting characters there would cost the line's length per value).
    ascii: Vec<bool>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let ascii = starts
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                let end = starts.get(k + 1).copied().unwrap_or(text.len());
                text.as_bytes()[s..end].is_ascii()
            })
            .collect();
        Lines {
            text,
            starts,
            ascii,
        }
    }

    fn pos(&self, offset: usize) -> Pos {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let end = offset.min(self.text.len()).max(start);
        let column = if self.ascii[line - 1] {
            end - start + 1
        } else {
            self.text
                .get(start..end)
                .map_or(1, |s| s.chars().count() + 1)
        };
        Pos { line, column }
    }
}

/// Parse a TOML document.
pub fn from_toml(text: &str) -> Result<Node, Problem> {
    let lines = Lines::new(text);
    let root = toml::de::DeTable::parse(text).map_err(|e| Problem {
        path: String::new(),
        // A parse error without a span is placed at the end of the text.
        at: Some(lines.pos(e.span().map_or(text.len(), |s| s.start))),
        message: e.message().trim_end().to_string(),
    })?;
    let span = root.span();
    let mut errors = Vec::new();
    let table = toml_table(root.get_ref(), &lines, &mut errors);
    match errors.into_iter().next() {
        Some(p) => Err(p),
        None => Ok(Node {
            value: table,
            at: Some(lines.pos(span.start)),
        }),
    }
}

fn toml_table(t: &toml::de::DeTable<'_>, lines: &Lines<'_>, errors: &mut Vec<Problem>) -> Value {
    Value::Table(
        t.iter()
            .map(|(k, v)| (k.get_ref().to_string(), toml_node(v, lines, errors)))
            .collect(),
    )
}

fn toml_node(
    v: &toml::Spanned<toml::de::DeValue<'_>>,
    lines: &Lines<'_>,
    errors: &mut Vec<Problem>,
) -> Node {
    use toml::de::DeValue;
    let at = Some(lines.pos(v.span().start));
    let mut bad = |message: String| {
        errors.push(Problem {
            path: String::new(),
            at,
            message,
        });
        Value::Bool(false)
    };
    let value = match v.get_ref() {
        DeValue::String(s) => Value::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Value::Int(n),
            Err(_) => bad(format!("integer {} does not fit in 64 bits", i)),
        },
        DeValue::Float(x) => match x.as_str().parse::<f64>() {
            Ok(f) => Value::Float(f),
            Err(_) => bad(format!("{} is not a number", x)),
        },
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => bad(format!("dates are not used in world definitions ({})", d)),
        DeValue::Array(a) => Value::Array(a.iter().map(|e| toml_node(e, lines, errors)).collect()),
        DeValue::Table(t) => toml_table(t, lines, errors),
    };
    Node { value, at }
}

/// Parse a JSON document (comments and trailing commas allowed).
pub fn from_json(text: &str) -> Result<Node, Problem> {
    let lines = Lines::new(text);
    let parsed = jsonc_parser::parse_to_ast(
        text,
        &jsonc_parser::CollectOptions::default(),
        &jsonc_parser::ParseOptions::default(),
    )
    .map_err(|e| Problem {
        path: String::new(),
        at: Some(lines.pos(e.range().start)),
        message: e.kind().to_string(),
    })?;
    let value = parsed.value.ok_or_else(|| Problem {
        path: String::new(),
        at: Some(Pos { line: 1, column: 1 }),
        message: "the document is empty".to_string(),
    })?;
    json_node(&value, &lines)
}

fn json_node(v: &jsonc_parser::ast::Value<'_>, lines: &Lines<'_>) -> Result<Node, Problem> {
    use jsonc_parser::ast::Value as J;
    let start = match v {
        J::StringLit(s) => s.range.start,
        J::NumberLit(n) => n.range.start,
        J::BooleanLit(b) => b.range.start,
        J::Object(o) => o.range.start,
        J::Array(a) => a.range.start,
        J::NullKeyword(n) => n.range.start,
    };
    let at = Some(lines.pos(start));
    let value = match v {
        J::StringLit(s) => Value::Str(s.value.to_string()),
        J::NumberLit(n) => {
            let t = n.value;
            let float = t.contains(['.', 'e', 'E']);
            match (float, t.parse::<i64>(), t.parse::<f64>()) {
                (false, Ok(i), _) => Value::Int(i),
                (_, _, Ok(f)) => Value::Float(f),
                _ => {
                    return Err(Problem {
                        path: String::new(),
                        at,
                        message: format!("{} is not a number", t),
                    })
                }
            }
        }
        J::BooleanLit(b) => Value::Bool(b.value),
        J::Object(o) => {
            let mut entries = Vec::with_capacity(o.properties.len());
            for p in &o.properties {
                entries.push((p.name.as_str().to_string(), json_node(&p.value, lines)?));
            }
            Value::Table(entries)
        }
        J::Array(a) => Value::Array(
            a.elements
                .iter()
                .map(|e| json_node(e, lines))
                .collect::<Result<_, _>>()?,
        ),
        J::NullKeyword(_) => {
            return Err(Problem {
                path: String::new(),
                at,
                message: "null is not a value of a world definition (leave the key out)"
                    .to_string(),
            })
        }
    };
    Ok(Node { value, at })
}

/// The TOML text of a table node (floats keep every bit: Rust prints the shortest text that
/// reads back to the same number).
pub fn to_toml(root: &Node) -> String {
    match to_toml_value(root) {
        toml::Value::Table(t) => toml::to_string(&t).unwrap_or_default(),
        _ => String::new(),
    }
}

fn to_toml_value(n: &Node) -> toml::Value {
    match &n.value {
        Value::Str(s) => toml::Value::String(s.clone()),
        Value::Int(i) => toml::Value::Integer(*i),
        Value::Float(f) => toml::Value::Float(*f),
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Array(a) => toml::Value::Array(a.iter().map(to_toml_value).collect()),
        Value::Table(t) => {
            let mut m = toml::map::Map::new();
            for (k, v) in t {
                m.insert(k.clone(), to_toml_value(v));
            }
            toml::Value::Table(m)
        }
    }
}

/// The JSON text of a node.
pub fn to_json(root: &Node) -> String {
    let mut s = serde_json::to_string_pretty(&to_json_value(root)).unwrap_or_default();
    s.push('\n');
    s
}

fn to_json_value(n: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &n.value {
        Value::Str(s) => J::String(s.clone()),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Bool(b) => J::Bool(*b),
        Value::Array(a) => J::Array(a.iter().map(to_json_value).collect()),
        Value::Table(t) => J::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), to_json_value(v)))
                .collect(),
        ),
    }
}
