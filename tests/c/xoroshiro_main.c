/* Prints reference outputs for tests/random_reference.rs.
 * usage: xoroshiro_main LO HI N   -> N xoroshiro128++ outputs from state {LO, HI}
 *        xoroshiro_main sm X N    -> N splitmix64 outputs from state X
 * Numbers are hexadecimal without prefix; outputs one hexadecimal value a line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ref_xoroshiro128pp(uint64_t s[2], uint64_t *out, int n);
void ref_splitmix64(uint64_t x, uint64_t *out, int n);

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int n = atoi(argv[3]);
    if (n <= 0 || n > 100000) return 2;
    uint64_t *out = malloc(sizeof(uint64_t) * (size_t)n);
    if (!out) return 3;
    if (strcmp(argv[1], "sm") == 0) {
        ref_splitmix64(strtoull(argv[2], NULL, 16), out, n);
    } else {
        uint64_t s[2] = {strtoull(argv[1], NULL, 16), strtoull(argv[2], NULL, 16)};
        ref_xoroshiro128pp(s, out, n);
    }
    for (int i = 0; i < n; i++) printf("%016" PRIx64 "\n", out[i]);
    free(out);
    return 0;
}
