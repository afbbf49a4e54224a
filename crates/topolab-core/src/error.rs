//! The one error type of topolab-core. Every message names what was wrong, the value given and
//! what is allowed, so that the Python layer can pass it through unchanged.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum TopolabError {
    /// A parameter has a value that makes the construction impossible.
    #[error("{context}: parameter '{param}' = {value} is not allowed: {allowed}")]
    InvalidParameter {
        context: String,
        param: String,
        value: String,
        allowed: String,
    },

    /// A parameter the family does not have.
    #[error("{context}: unknown parameter '{}'; valid parameters: {valid}", quote(.param))]
    UnknownParameter {
        context: String,
        param: String,
        valid: String,
    },

    /// A parameter without default that was not given.
    #[error("{context}: missing parameter '{param}' ({help})")]
    MissingParameter {
        context: String,
        param: String,
        help: String,
    },

    /// A topology family name that is not registered.
    #[error("unknown topology family '{}'; valid families: {valid}", quote(.name))]
    UnknownFamily { name: String, valid: String },

    /// A spec string that cannot be parsed.
    #[error("cannot parse spec '{spec}': {reason}")]
    SpecSyntax { spec: String, reason: String },

    /// A file or document in a format topolab reads, but with bad content.
    #[error("{format} input{location}: {reason}")]
    Format {
        format: String,
        location: String,
        reason: String,
    },

    /// An operating-system level failure reading or writing a file.
    #[error("{}: {reason}", quote(.path))]
    Io { path: String, reason: String },

    /// The computation was asked to stop (Ctrl-C, a cancelled job).
    #[error("interrupted")]
    Interrupted,

    /// A network that is not valid as a whole (dangling link, self-loop, duplicate link).
    #[error("invalid network: {0}")]
    InvalidNetwork(String),
}

pub type Result<T> = std::result::Result<T, TopolabError>;

/// Longest stretch of a user's value an error message repeats: enough to recognize it, never
/// megabytes of a pasted or generated input.
pub const QUOTE_MAX_CHARS: usize = 200;

/// `value` as an error message shows it: whole when short, else its first
/// `QUOTE_MAX_CHARS` characters and the total length.
pub fn quote(value: &str) -> String {
    cut(value, QUOTE_MAX_CHARS)
}

fn cut(value: &str, max_chars: usize) -> String {
    match value.char_indices().nth(max_chars) {
        None => value.to_string(),
        Some((cut, _)) => format!(
            "{}... ({} characters in all)",
            &value[..cut],
            value.chars().count()
        ),
    }
}

impl TopolabError {
    pub fn invalid(
        context: impl Into<String>,
        param: impl Into<String>,
        value: impl ToString,
        allowed: impl Into<String>,
    ) -> Self {
        TopolabError::InvalidParameter {
            context: context.into(),
            param: param.into(),
            value: quote(&value.to_string()),
            allowed: allowed.into(),
        }
    }

    pub fn format(format: &str, location: impl Into<String>, reason: impl Into<String>) -> Self {
        let location = location.into();
        TopolabError::Format {
            format: format.to_string(),
            location: if location.is_empty() {
                String::new()
            } else {
                format!(" ({location})")
            },
            // The readers quote tokens of the file in their reasons; a token can be megabytes.
            reason: cut(&reason.into(), 5 * QUOTE_MAX_CHARS),
        }
    }

    pub fn io(path: &std::path::Path, err: std::io::Error) -> Self {
        TopolabError::Io {
            path: path.display().to_string(),
            reason: err.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_and_reasons_are_cut_with_their_length() {
        assert_eq!(quote("short"), "short");
        let long = "é".repeat(1000);
        let q = quote(&long);
        assert!(q.starts_with(&"é".repeat(200)) && !q.starts_with(&"é".repeat(201)));
        assert!(q.ends_with("(1000 characters in all)"), "{q}");
        let e = TopolabError::format(
            "anynet",
            "line 1",
            format!("bad token '{}'", "x".repeat(1 << 20)),
        );
        assert!(
            e.to_string().len() < 1200,
            "{} characters",
            e.to_string().len()
        );
    }
}
