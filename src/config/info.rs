//! `kscope info`: which files are in use and which contexts exist, without secrets.

use std::fmt::Write as _;

use super::load::LoadedConfig;
use super::schema::ContextSection;

/// How a context from the file connects, e.g. `SASL SCRAM-SHA-512 over TLS`.
pub fn security_of(section: &ContextSection) -> String {
    match (&section.sasl, section.tls.is_some()) {
        (Some(sasl), true) => format!("SASL {} over TLS", sasl.mechanism.get_ref()),
        (Some(sasl), false) => format!("SASL {} without TLS", sasl.mechanism.get_ref()),
        (None, true) => "TLS".to_owned(),
        (None, false) => "PLAINTEXT".to_owned(),
    }
}

/// The report: config file, log file, default context, then one line per context.
pub fn report(loaded: &LoadedConfig, config_path: Option<&str>, log_file: Option<&str>) -> String {
    let mut out = String::new();
    let config = match (config_path, &loaded.path) {
        (_, Some(path)) => path.display().to_string(),
        (Some(path), None) => format!("{path} (not found; using built-in defaults)"),
        (None, None) => "none (no home directory)".to_owned(),
    };
    let _ = writeln!(out, "config file:     {config}");
    let _ = writeln!(
        out,
        "log file:        {}",
        log_file.unwrap_or("none (no home directory)")
    );
    let default = loaded
        .file
        .default_context
        .as_ref()
        .map_or("(none)", |d| d.get_ref().as_str());
    let _ = writeln!(out, "default context: {default}");
    if loaded.file.contexts.is_empty() {
        let _ = writeln!(
            out,
            "contexts:        none (use -b HOST:PORT, or add [contexts.NAME])"
        );
        return out;
    }
    let _ = writeln!(out, "contexts:");
    let width = loaded
        .file
        .contexts
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(0);
    for (name, section) in &loaded.file.contexts {
        let servers: Vec<&str> = section
            .bootstrap_servers
            .get_ref()
            .iter()
            .map(|s| s.get_ref().as_str())
            .collect();
        let mode = if section.read_only {
            "read-only"
        } else {
            "read-write"
        };
        let marker = if name == default { '*' } else { ' ' };
        let _ = writeln!(
            out,
            "{marker} {name:width$}  {mode:10}  {:28}  {}",
            security_of(section),
            servers.join(",")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_report_lists_contexts_and_never_a_password() {
        let text = r#"
default_context = "prod"
[contexts.local]
bootstrap_servers = ["127.0.0.1:9092"]
[contexts.prod]
bootstrap_servers = ["b1:9093", "b2:9093"]
read_only = true
[contexts.prod.tls]
[contexts.prod.sasl]
mechanism = "SCRAM-SHA-512"
username = "alice"
password = "alice-secret"
"#;
        let path = Path::new("/c/config.toml");
        let file = crate::config::load::parse(path, text).expect("parses");
        let loaded = LoadedConfig {
            path: Some(path.to_owned()),
            text: text.to_owned(),
            file,
            warnings: vec![],
        };
        let report = report(&loaded, None, Some("/l/kscope.log"));
        assert!(
            report.contains("config file:     /c/config.toml"),
            "{report}"
        );
        assert!(report.contains("/l/kscope.log"), "{report}");
        assert!(report.contains("default context: prod"), "{report}");
        let prod = report
            .lines()
            .find(|l| l.contains("prod "))
            .expect("prod line");
        assert!(
            prod.starts_with('*') && prod.contains("read-only"),
            "{prod}"
        );
        assert!(
            prod.contains("SASL SCRAM-SHA-512 over TLS") && prod.contains("b1:9093,b2:9093"),
            "{prod}"
        );
        assert!(!report.contains("alice-secret"), "{report}");
    }
}
