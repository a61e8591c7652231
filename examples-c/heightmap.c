/* Minimal heightmap example: fills a 4 x 4 block of heightmap chunks with fBm and writes a
 * binary PGM image. usage: heightmap OUT.pgm [SEED] */
#include <stdio.h>
#include <stdlib.h>

#include "stratagen.h"

#define RES 64
#define CHUNKS 4

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.pgm [SEED]\n", argv[0]);
        return 2;
    }
    sg_noise_def def = sg_noise_def_default();
    def.seed = argc > 2 ? atoll(argv[2]) : 1;
    def.octaves = 6;
    def.frequency = 1.0 / 24.0;
    static float tile[RES * RES];
    static unsigned char image[CHUNKS * RES][CHUNKS * RES];
    for (int cz = 0; cz < CHUNKS; cz++)
        for (int cx = 0; cx < CHUNKS; cx++) {
            sg_result r = sg_heightmap_fill(&def, cx, cz, RES, tile, RES * RES);
            if (r != SG_RESULT_OK) {
                fprintf(stderr, "sg_heightmap_fill: %s\n", sg_result_message(r));
                return 1;
            }
            for (int j = 0; j < RES; j++)
                for (int i = 0; i < RES; i++) {
                    float v = (tile[j * RES + i] + 1.0f) * 127.5f;
                    image[cz * RES + j][cx * RES + i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
        }
    FILE *f = fopen(argv[1], "wb");
    if (!f) return 1;
    fprintf(f, "P5\n%d %d\n255\n", CHUNKS * RES, CHUNKS * RES);
    fwrite(image, 1, sizeof image, f);
    return fclose(f) == 0 ? 0 : 1;
}
