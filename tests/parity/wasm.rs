// The parity corpus as a WebAssembly module (built by .ci/wasm-build.sh with Debian's rustc
// 1.63): `corpus()` computes every line and returns their text (lines joined by '\n'), which
// the JavaScript tests compare with the x86_64 snapshot.
mod corpus;

use std::cell::RefCell;

thread_local! {
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Compute the corpus; its length in bytes (the text is at `corpus_ptr()`).
#[no_mangle]
pub extern "C" fn corpus() -> usize {
    let text = corpus::lines().join("\n");
    TEXT.with(|t| {
        *t.borrow_mut() = text;
        t.borrow().len()
    })
}

/// Where the text of the last `corpus()` call starts.
#[no_mangle]
pub extern "C" fn corpus_ptr() -> *const u8 {
    TEXT.with(|t| t.borrow().as_ptr())
}
