//! A document as bytes: the tree of [`Node`]s that a host which parsed the text itself hands
//! over, each value with the line:column it was written at. The JavaScript package parses TOML
//! in JavaScript and reads the tree with this library compiled to WebAssembly, so a document's
//! problems are found by the same code on every platform.
//!
//! Every number is little-endian. A node is its kind (`u8`), its line and column (`u32` each,
//! counted from 1; `0 0` for a value without a place), then its value:
//!
//! | kind | value |
//! |---|---|
//! | 0 string | `u32` byte length, UTF-8 |
//! | 1 integer | `i64` |
//! | 2 float | `f64` |
//! | 3 boolean | `u8` 0 or 1 |
//! | 4 array | `u32` count, the nodes |
//! | 5 table | `u32` count, per entry a `u32` key length, the UTF-8 key, the node |
//!
//! A list of named trees (the presets a document may stand on) is a `u32` count, then per
//! tree a `u32` name length, the UTF-8 name and the node.

use crate::node::{Node, Value};
use crate::problem::{Pos, Problem};

/// Kind byte of a string.
const STRING: u8 = 0;
/// Kind byte of an integer.
const INTEGER: u8 = 1;
/// Kind byte of a float.
const FLOAT: u8 = 2;
/// Kind byte of a boolean.
const BOOLEAN: u8 = 3;
/// Kind byte of an array.
const ARRAY: u8 = 4;
/// Kind byte of a table.
const TABLE: u8 = 5;
/// Deepest nesting of arrays and tables read (a world definition nests four deep).
const MAX_DEPTH: usize = 64;

/// The document tree in `bytes` (a table), or the problem with the encoding.
pub fn decode(bytes: &[u8]) -> Result<Node, Problem> {
    let mut c = Cursor { bytes, at: 0 };
    let root = c.node(0)?;
    if !matches!(root.value, Value::Table(_)) {
        return Err(c.problem(0, format!("the document is {}, not a table", root.kind())));
    }
    c.end()?;
    Ok(root)
}

/// The named trees in `bytes`, in order.
pub fn decode_list(bytes: &[u8]) -> Result<Vec<(String, Node)>, Problem> {
    let mut c = Cursor { bytes, at: 0 };
    let count = c.u32()?;
    let mut list = Vec::new();
    for _ in 0..count {
        let name = c.string()?;
        list.push((name, c.node(0)?));
    }
    c.end()?;
    Ok(list)
}

/// The bytes of `n` (the encoding [`decode`] reads).
#[cfg(feature = "text")]
pub fn encode(n: &Node, out: &mut Vec<u8>) {
    let (line, column) = n.at.map_or((0, 0), |p| (p.line as u32, p.column as u32));
    let kind = match n.value {
        Value::Str(_) => STRING,
        Value::Int(_) => INTEGER,
        Value::Float(_) => FLOAT,
        Value::Bool(_) => BOOLEAN,
        Value::Array(_) => ARRAY,
        Value::Table(_) => TABLE,
    };
    out.push(kind);
    out.extend_from_slice(&line.to_le_bytes());
    out.extend_from_slice(&column.to_le_bytes());
    let text = |s: &str, out: &mut Vec<u8>| {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    match &n.value {
        Value::Str(s) => text(s, out),
        Value::Int(i) => out.extend_from_slice(&i.to_le_bytes()),
        Value::Float(f) => out.extend_from_slice(&f.to_le_bytes()),
        Value::Bool(b) => out.push(u8::from(*b)),
        Value::Array(a) => {
            out.extend_from_slice(&(a.len() as u32).to_le_bytes());
            a.iter().for_each(|v| encode(v, out));
        }
        Value::Table(t) => {
            out.extend_from_slice(&(t.len() as u32).to_le_bytes());
            for (k, v) in t {
                text(k, out);
                encode(v, out);
            }
        }
    }
}

/// Reads the encoding front to back; every read is bounds-checked.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn problem(&self, at: usize, what: String) -> Problem {
        Problem {
            path: String::new(),
            at: None,
            message: format!("document tree: byte {}: {}", at, what),
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], Problem> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.at..end];
                self.at = end;
                Ok(s)
            }
            None => Err(self.problem(self.at, format!("{} bytes needed, the tree ends", n))),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Problem> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, Problem> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, Problem> {
        let len = self.u32()? as usize;
        let start = self.at;
        let bytes = self.take(len)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => Err(self.problem(start, "a string that is not UTF-8".into())),
        }
    }

    fn node(&mut self, depth: usize) -> Result<Node, Problem> {
        let start = self.at;
        if depth > MAX_DEPTH {
            return Err(self.problem(start, format!("nested deeper than {}", MAX_DEPTH)));
        }
        let kind = self.array::<1>()?[0];
        let line = self.u32()? as usize;
        let column = self.u32()? as usize;
        let at = match (line, column) {
            (0, 0) => None,
            (line, column) if line > 0 && column > 0 => Some(Pos { line, column }),
            _ => return Err(self.problem(start, "a line or column of 0".into())),
        };
        let value = match kind {
            STRING => Value::Str(self.string()?),
            INTEGER => Value::Int(i64::from_le_bytes(self.array()?)),
            FLOAT => Value::Float(f64::from_le_bytes(self.array()?)),
            BOOLEAN => match self.array::<1>()?[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                b => return Err(self.problem(self.at - 1, format!("boolean byte {}", b))),
            },
            ARRAY => {
                let count = self.u32()?;
                let mut items = Vec::new();
                for _ in 0..count {
                    items.push(self.node(depth + 1)?);
                }
                Value::Array(items)
            }
            TABLE => {
                let count = self.u32()?;
                let mut entries = Vec::new();
                for _ in 0..count {
                    let key = self.string()?;
                    entries.push((key, self.node(depth + 1)?));
                }
                Value::Table(entries)
            }
            k => return Err(self.problem(start, format!("unknown kind {}", k))),
        };
        Ok(Node { value, at })
    }

    fn end(&self) -> Result<(), Problem> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.problem(
                self.at,
                format!("{} bytes after the tree", self.bytes.len() - self.at),
            ))
        }
    }
}

#[cfg(all(test, feature = "text"))]
mod tests {
    use super::*;

    fn bytes(n: &Node) -> Vec<u8> {
        let mut out = Vec::new();
        encode(n, &mut out);
        out
    }

    #[test]
    fn every_preset_reads_back_as_the_tree_it_was() {
        for name in crate::PRESETS {
            let tree = crate::text::from_toml(crate::preset(name).unwrap()).unwrap();
            assert_eq!(decode(&bytes(&tree)).unwrap(), tree, "{name}");
        }
    }

    #[test]
    fn a_tree_reads_as_the_text_it_came_from() {
        let text = "format = 1\nname = \"x\"\nlist = [1, 2.5, true, \"é\"]\n[t]\nk = -3\n";
        for name in crate::PRESETS.iter().copied().chain([""]) {
            let doc = if name.is_empty() {
                text.to_string()
            } else {
                format!("base = \"{name}\"\nname = \"t\"\n")
            };
            let tree = crate::text::from_toml(&doc).unwrap();
            let list = crate::preset_trees();
            assert_eq!(
                crate::parse_tree(&bytes(&tree), &list).map(|d| d.digest()),
                crate::parse(&doc).map(|d| d.digest()),
                "{doc}"
            );
        }
    }

    #[test]
    fn damaged_trees_are_refused_with_the_byte() {
        let tree = crate::text::from_toml("a = [1, {b = \"c\"}]\n").unwrap();
        let good = bytes(&tree);
        // Every truncation and every extra byte is refused, never read past.
        for len in 0..good.len() {
            let e = decode(&good[..len]).unwrap_err();
            assert!(e.message.starts_with("document tree: byte "), "{e}");
        }
        let mut long = good.clone();
        long.push(0);
        assert!(decode(&long)
            .unwrap_err()
            .message
            .contains("1 bytes after the tree"));
        // A kind, a boolean, a position and a string that do not exist.
        let mut bad = good.clone();
        bad[0] = 9;
        assert!(decode(&bad).unwrap_err().message.contains("unknown kind 9"));
        let one = bytes(&Node::new(Value::Table(vec![(
            "k".into(),
            Node::new(Value::Bool(true)),
        )])));
        let mut bad = one.clone();
        *bad.last_mut().unwrap() = 2;
        assert!(decode(&bad).unwrap_err().message.contains("boolean byte 2"));
        let mut bad = one.clone();
        bad[1] = 1; // line 1, column 0
        assert!(decode(&bad)
            .unwrap_err()
            .message
            .contains("a line or column of 0"));
        let mut bad = one;
        bad[13 + 4] = 0xff; // the key's one byte
        assert!(decode(&bad).unwrap_err().message.contains("not UTF-8"));
        // A root that is not a table, and nesting past the limit.
        let e = decode(&bytes(&Node::new(Value::Int(1)))).unwrap_err();
        assert!(e.message.contains("an integer, not a table"), "{e}");
        let mut deep = Node::new(Value::Int(0));
        for _ in 0..=MAX_DEPTH + 1 {
            deep = Node::new(Value::Array(vec![deep]));
        }
        let root = Node::new(Value::Table(vec![("d".into(), deep)]));
        assert!(decode(&bytes(&root))
            .unwrap_err()
            .message
            .contains("nested deeper"));
    }
}
