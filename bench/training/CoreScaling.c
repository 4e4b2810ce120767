// What two cores of this machine share: one process alone against two side by side, for a loop of
// AVX-512 (or narrower) multiply-adds in registers (no memory), and a streaming y = a·y + x over
// arrays that fit a core's L2, the shared L3, or neither. bench/training/core-scaling.sh builds and runs it.
//   CoreScaling fma SECONDS | CoreScaling triad SECONDS FLOATS
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: CoreScaling fma SECONDS | CoreScaling triad SECONDS FLOATS\n");
        return 2;
    }
    double seconds = atof(argv[2]);
    if (!strcmp(argv[1], "fma")) {
        // ten independent chains, so that the units, not one chain's latency, set the rate
#ifdef __AVX512F__
        __m512 a[10];
        for (int i = 0; i < 10; i++) a[i] = _mm512_set1_ps(1.0f + i * 1e-7f);
        __m512 b = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-8f);
        const int lanes = 16;
#else
        __m256 a[10];
        for (int i = 0; i < 10; i++) a[i] = _mm256_set1_ps(1.0f + i * 1e-7f);
        __m256 b = _mm256_set1_ps(0.9999999f), c = _mm256_set1_ps(1e-8f);
        const int lanes = 8;
#endif
        long iterations = 0;
        double t0 = now(), t;
        do {
            for (int k = 0; k < 100000; k++) {
                for (int i = 0; i < 10; i++) {
#ifdef __AVX512F__
                    a[i] = _mm512_fmadd_ps(a[i], b, c);
#else
                    a[i] = _mm256_fmadd_ps(a[i], b, c);
#endif
                }
            }
            iterations += 100000;
        } while ((t = now()) - t0 < seconds);
        float sink = 0;
        float lane[16];
        for (int i = 0; i < 10; i++) {
#ifdef __AVX512F__
            _mm512_storeu_ps(lane, a[i]);
#else
            _mm256_storeu_ps(lane, a[i]);
#endif
            sink += lane[0];
        }
        printf("%.1f GFLOP/s (%g)\n", iterations * 10.0 * lanes * 2 / (t - t0) / 1e9, sink);
    } else {
        size_t n = (size_t) atol(argv[3]);
        float *x = aligned_alloc(64, n * sizeof(float)), *y = aligned_alloc(64, n * sizeof(float));
        for (size_t i = 0; i < n; i++) {
            x[i] = 1;
            y[i] = 2;
        }
        long passes = 0;
        double t0 = now(), t;
        do {
            for (size_t i = 0; i < n; i++) y[i] = y[i] * 1.0000001f + x[i];
            passes++;
        } while ((t = now()) - t0 < seconds);
        printf("%.1f GB/s (%g)\n", passes * n * 12.0 / (t - t0) / 1e9, y[n / 2]);   // x and y read, y written
    }
    return 0;
}
