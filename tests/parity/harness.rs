// Prints the parity corpus (see corpus.rs). Built by .ci/cross.sh with Debian's rustc 1.63
// for aarch64, s390x and i686 (SSE2) and run under qemu-user; its output must equal the
// x86_64 snapshot.
mod corpus;

fn main() {
    for l in corpus::lines() {
        println!("{}", l);
    }
}
