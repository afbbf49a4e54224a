//! Message files: a workload written out message by message, the form traces are imported into
//! (python/topolab/traces.py reads Chakra execution traces into it) and any tool can write.
//!
//! Text, one message a line, fields separated by white space:
//! `src dst bytes delay phase [dep ...]`: source and destination ranks, bytes, cycles the sender
//! waits after the message's dependencies arrived, the index of its phase, then the messages it
//! waits for, by their line number among the message lines (from 0). Lines starting with `#`
//! are comments, except the headers `# ranks N` (default: the largest rank + 1), `# phases
//! name,name,...` and `# bytes S` (the operation's size, for algbw). The rules of
//! `Workload::check` apply: a message waits only for earlier messages its sender received.

use super::{Builder, Message, Workload, MAX_MESSAGES};
use crate::traffic::Spec;
use crate::Result;

/// Longest message file read (bytes): about 40 bytes a message at `MAX_MESSAGES`.
const MAX_FILE_BYTES: u64 = 40 * MAX_MESSAGES;

pub(super) fn read(s: &Spec, free: u32) -> Result<Workload> {
    let path = s.params().opt_text("path")?.ok_or_else(|| {
        s.invalid(
            "path",
            "none",
            "the path of a message file (docs/workloads.md)",
        )
    })?;
    let size = std::fs::metadata(&path)
        .map_err(|e| {
            s.invalid(
                "path",
                format!("'{path}'"),
                &format!("a readable file ({e})"),
            )
        })?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(s.invalid(
            "path",
            format!("'{path}' ({size} bytes)"),
            &format!("a message file of at most {MAX_FILE_BYTES} bytes"),
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        s.invalid(
            "path",
            format!("'{path}'"),
            &format!("a readable text file ({e})"),
        )
    })?;
    let w = parse(s, &path, &text)?;
    if w.ranks > free {
        return Err(s.invalid(
            "path",
            format!("'{path}' ({} ranks)", w.ranks),
            &format!("a workload of at most the {free} endpoints free for this job"),
        ));
    }
    Ok(w)
}

fn parse(s: &Spec, path: &str, text: &str) -> Result<Workload> {
    let bad = |line: usize, why: &str| {
        s.invalid(
            "path",
            format!("'{path}' line {}", line + 1),
            &format!("a message file (docs/workloads.md): {why}"),
        )
    };
    let mut ranks: Option<u32> = None;
    let mut phases: Vec<String> = Vec::new();
    let mut bytes: Option<u64> = None;
    let mut messages: Vec<(Message, Vec<u32>)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('#') {
            let mut words = header.split_whitespace();
            match (words.next(), words.next()) {
                (Some("ranks"), Some(v)) => {
                    ranks = Some(
                        v.parse()
                            .map_err(|_| bad(n, "'# ranks N' with N a count"))?,
                    )
                }
                (Some("phases"), Some(v)) => phases = v.split(',').map(str::to_string).collect(),
                (Some("bytes"), Some(v)) => {
                    bytes = Some(
                        v.parse()
                            .map_err(|_| bad(n, "'# bytes S' with S a count"))?,
                    )
                }
                _ => {}
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if messages.len() as u64 >= MAX_MESSAGES {
            return Err(bad(n, &format!("at most {MAX_MESSAGES} messages")));
        }
        let mut fields = line.split_whitespace().map(|w| w.parse::<u64>());
        let mut next = |what: &str| -> Result<u64> {
            fields
                .next()
                .ok_or_else(|| {
                    bad(
                        n,
                        &format!("'src dst bytes delay phase [dep ...]', {what} missing"),
                    )
                })?
                .map_err(|_| bad(n, "non-negative integers"))
        };
        let src = next("src")?;
        let dst = next("dst")?;
        let size = next("bytes")?;
        let delay = next("delay")?;
        let phase = next("phase")?;
        if src >= u32::MAX as u64
            || dst >= u32::MAX as u64
            || delay > u32::MAX as u64 / 2
            || phase > u16::MAX as u64
        {
            return Err(bad(n, "ranks, delay and phase within range"));
        }
        let mut deps = Vec::new();
        for d in fields {
            let d = d.map_err(|_| bad(n, "dependencies as message numbers"))?;
            if d >= messages.len() as u64 {
                return Err(bad(n, "dependencies on earlier messages only"));
            }
            deps.push(d as u32);
        }
        messages.push((
            Message {
                src: src as u32,
                dst: dst as u32,
                bytes: size,
                delay: delay as u32,
                phase: phase as u16,
                iteration: 0,
            },
            deps,
        ));
    }
    if messages.is_empty() {
        return Err(bad(0, "at least one message"));
    }
    let used = messages
        .iter()
        .map(|(m, _)| m.src.max(m.dst))
        .max()
        .unwrap_or(0)
        + 1;
    let ranks = ranks.unwrap_or(used);
    if phases.is_empty() {
        phases.push("messages".into());
    }
    let mut b = Builder::new(ranks, phases);
    for (m, deps) in &messages {
        b.push(*m, deps);
    }
    let total = bytes.unwrap_or(0);
    let name = format!("messages:path={path}");
    let w = b.finish(&name, "messages", "file", total, 1.0, 1);
    w.check()?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use crate::build_str;
    use crate::workload::Workload;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A file of `text` in the temporary directory, named uniquely for this process.
    fn file(text: &str) -> PathBuf {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("topolab-messages-{}-{n}.txt", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_message_file_reads_back_as_written() {
        let f = file(
            "# ranks 3\n# phases a,b\n# bytes 100\n0 1 100 0 0\n1 2 50 7 1 0\n# c\n2 0 1 0 1 1\n",
        );
        let net = build_str("hyperx:dims=4,p=1").unwrap();
        let spec = format!("messages:path={}", f.display());
        let w = Workload::parse(&spec, &net, 4).unwrap();
        assert_eq!(w.ranks, 3);
        assert_eq!(w.messages.len(), 3);
        assert_eq!(w.messages[1].delay, 7);
        assert_eq!(w.deps(2), &[1]);
        assert_eq!(w.phases, vec!["a", "b"]);
        std::fs::remove_file(&f).unwrap();
        for (text, needle) in [
            ("0 1 100 0\n", "phase missing"),
            ("0 1 100 0 0 3\n", "earlier messages"),
            ("0 1 x 0 0\n", "non-negative"),
            ("0 1 5 0 0\n0 1 5 0 0 0\n", "received by"),
            ("# nothing\n", "at least one"),
            ("0 9 5 0 0\n", "endpoints free"),
        ] {
            let f = file(text);
            let spec = format!("messages:path={}", f.display());
            let err = Workload::parse(&spec, &net, 4).unwrap_err().to_string();
            std::fs::remove_file(&f).unwrap();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
