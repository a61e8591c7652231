//! What is wrong with a definition document: every [`Problem`] with its path and where it was
//! written, collected into [`Problems`].

use std::fmt;

/// A position in a document's text, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// Line.
    pub line: usize,
    /// Column (characters).
    pub column: usize,
}

/// One problem of a definition document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Path of the value (`biomes[3].surface`); empty for the document itself.
    pub path: String,
    /// Where the value (or the nearest enclosing one that exists) was written.
    pub at: Option<Pos>,
    /// What is wrong, with the allowed values where there are any.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.at {
            write!(f, "{}:{}: ", p.line, p.column)?;
        }
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Most problems one document reports.
pub const MAX_PROBLEMS: usize = 100;

/// Every problem of a document (at least one), in the order found, up to [`MAX_PROBLEMS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems {
    /// The problems.
    pub list: Vec<Problem>,
    /// Problems found beyond [`MAX_PROBLEMS`] and not listed.
    pub more: usize,
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, p) in self.list.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", p)?;
        }
        if self.more > 0 {
            write!(f, "\n... and {} more", self.more)?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

impl From<Problem> for Problems {
    fn from(p: Problem) -> Problems {
        Problems {
            list: vec![p],
            more: 0,
        }
    }
}

/// The problem of a document whose bytes are not UTF-8, at the first bad byte.
#[cfg(feature = "text")]
pub(crate) fn not_utf8(bytes: &[u8], e: std::str::Utf8Error) -> Problem {
    let good = &bytes[..e.valid_up_to()];
    // The prefix is valid UTF-8 by the error's definition.
    let good = std::str::from_utf8(good).unwrap_or_default();
    let line_start = good.rfind('\n').map_or(0, |i| i + 1);
    let message = match e.error_len() {
        Some(_) => "the document is not UTF-8: this byte starts no character",
        None => "the document is not UTF-8: it ends inside a character",
    };
    Problem {
        path: String::new(),
        at: Some(Pos {
            line: good.matches('\n').count() + 1,
            column: good[line_start..].chars().count() + 1,
        }),
        message: message.into(),
    }
}
