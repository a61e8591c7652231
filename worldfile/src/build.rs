//! Building [`Node`] trees in code (what `print` writes) and reading enum names.

use crate::node::{Node, Value};
use crate::reader::Reader;

/// A table under construction, keys in the order they are added.
#[derive(Default)]
pub struct T(Vec<(String, Node)>);

impl T {
    pub fn new() -> T {
        T::default()
    }
    pub fn n(mut self, key: &str, n: Node) -> T {
        self.0.push((key.to_string(), n));
        self
    }
    pub fn s(self, key: &str, v: &str) -> T {
        self.n(key, string(v))
    }
    pub fn i(self, key: &str, v: i64) -> T {
        self.n(key, Node::new(Value::Int(v)))
    }
    pub fn f(self, key: &str, v: f64) -> T {
        self.n(key, float(v))
    }
    pub fn b(self, key: &str, v: bool) -> T {
        self.n(key, Node::new(Value::Bool(v)))
    }
    pub fn done(self) -> Node {
        Node::new(Value::Table(self.0))
    }
}

pub fn string(v: &str) -> Node {
    Node::new(Value::Str(v.to_string()))
}

pub fn float(v: f64) -> Node {
    Node::new(Value::Float(v))
}

pub fn int(v: i64) -> Node {
    Node::new(Value::Int(v))
}

pub fn array(v: impl IntoIterator<Item = Node>) -> Node {
    Node::new(Value::Array(v.into_iter().collect()))
}

pub fn floats(v: &[f64]) -> Node {
    array(v.iter().map(|&x| float(x)))
}

pub fn ints(v: &[i64]) -> Node {
    array(v.iter().map(|&x| int(x)))
}

/// Read a name among `(name, value)` choices.
pub fn choice<E: Copy>(
    r: &mut Reader,
    node: &Node,
    path: &str,
    choices: &[(&str, E)],
    fallback: E,
) -> E {
    let s: String = r.read(node, path);
    if let Some((_, e)) = choices.iter().find(|(n, _)| *n == s) {
        return *e;
    }
    if matches!(node.value, Value::Str(_)) {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        r.problem(
            path,
            node,
            format!("unknown value {:?} (one of: {})", s, names.join(", ")),
        );
    }
    fallback
}

pub use stratagen_core::noise::names::name_of;
