//! A document as a tree of [`Node`]s that remember where they were written (line:column),
//! so that every problem found later can point at its text. The tree comes from TOML or JSON
//! text (`text.rs`) or from a host that parsed the text itself (`tree.rs`).

use std::fmt;

use crate::problem::Pos;

/// A value of a document.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// An array.
    Array(Vec<Node>),
    /// A table (an object in JSON), keys in the order the parser gives them.
    Table(Vec<(String, Node)>),
}

/// A value and where it was written (`None` for values made by code, such as a preset base).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where it starts in its text.
    pub at: Option<Pos>,
}

impl Node {
    /// A node made by code.
    pub fn new(value: Value) -> Node {
        Node { value, at: None }
    }

    /// What kind of value this is, as a designer would say it.
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }

    /// The entry `key` of a table node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Table(t) => t.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The node at a document path (`terrain.caves.surface_fade`, `biomes[2].surface[0]`),
    /// or the deepest node on the way that exists.
    pub fn find(&self, path: &str) -> &Node {
        let mut at = self;
        for part in path.split('.') {
            let (key, indices) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            if !key.is_empty() {
                match at.get(key) {
                    Some(n) => at = n,
                    None => return at,
                }
            }
            for index in indices.split('[').filter(|s| !s.is_empty()) {
                let i: usize = match index.trim_end_matches(']').parse() {
                    Ok(i) => i,
                    Err(_) => return at,
                };
                match &at.value {
                    Value::Array(v) if i < v.len() => at = &v[i],
                    _ => return at,
                }
            }
        }
        at
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Value::Str(s) => write!(f, "{:?}", s),
            Value::Int(i) => write!(f, "{}", i),
            Value::Float(x) => write!(f, "{}", x),
            Value::Bool(b) => write!(f, "{}", b),
            Value::Array(_) => f.write_str("[...]"),
            Value::Table(_) => f.write_str("{...}"),
        }
    }
}
