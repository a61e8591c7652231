//! What the bench report says about the machine and the process: peak resident memory and
//! the CPU model.

/// Peak resident memory of this process in MiB (Linux `VmHWM`; 0 where unavailable).
pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The CPU model (`model name` of `/proc/cpuinfo`, with its family and model numbers, which
/// tell CPU generations apart where the name does not), or "unknown CPU".
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    match field("model name") {
        Some(name) => format!(
            "{name} (family {} model {})",
            field("cpu family").unwrap_or_default(),
            field("model").unwrap_or_default()
        ),
        None => "unknown CPU".to_string(),
    }
}
