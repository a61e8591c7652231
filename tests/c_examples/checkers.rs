//! The examples and the misuse and guard-page tests under the memory checkers: built with
//! AddressSanitizer and UndefinedBehaviorSanitizer, and run under valgrind.

use super::*;

#[test]
fn examples_are_clean_under_sanitizers() {
    let out = make_examples("sanitize");
    for args in [
        vec!["misuse"],
        vec!["guard_page"],
        vec!["pool", "5", "1", "2"],
        vec!["walk", "11", "4", "2"],
        vec!["mesh", "0", "2", "2"],
        vec!["resume", "0", "0", "200"],
        vec!["definition", "archipelago", "1", "0"],
        vec!["edit", "4"],
        vec!["scatter", "6"],
        vec!["stress", "5", "2", "3"],
        vec!["wrapper", "5", "1"],
    ] {
        let o = Command::new(out.join("sanitize").join(args[0]))
            .args(&args[1..])
            .env(
                "ASAN_OPTIONS",
                "detect_leaks=1:abort_on_error=0:exitcode=98",
            )
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "sanitized {args:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        if ["misuse", "guard_page", "wrapper"].contains(&args[0]) {
            assert_all_checks_passed(args[0], &String::from_utf8_lossy(&o.stdout));
        }
    }
}

#[test]
fn examples_are_clean_under_valgrind() {
    let have = common::runs("valgrind");
    if !common::tool_present(
        "examples_are_clean_under_valgrind",
        "valgrind",
        have,
        "valgrind",
    ) {
        return;
    }
    for args in [
        vec!["pool", "5", "0", "2"],
        vec!["misuse"],
        vec!["guard_page"],
        vec!["mesh", "0", "2", "2"],
        vec!["resume", "0", "0", "200"],
        vec!["definition", "archipelago", "1", "0"],
        vec!["edit", "4"],
        vec!["scatter", "6"],
        vec!["wrapper", "5", "1"],
    ] {
        let exe = examples().join(args[0]);
        let o = Command::new("valgrind")
            .args([
                "--error-exitcode=99",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite",
                "-q",
            ])
            .arg(&exe)
            .args(&args[1..])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "valgrind {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
