/* A fixed mix of work on one CPU, timed per 250 ms window: a pointer chase over 8 MiB (cache and memory)
 * and an integer loop (the core). Its rate over time shows the host's phases. Prints
 * "<seconds since start> <million chase steps per second>" per window. Usage: probe SECONDS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 60;
    size_t n = (8u << 20) / sizeof(size_t), p = 0;
    size_t *next = malloc(n * sizeof(size_t));
    uint64_t r = 88172645463325252ull, h = 1;
    for (size_t i = 0; i < n; i++)
        next[i] = i;
    /* a random permutation, so each step misses the cache lines the last ones brought in */
    for (size_t i = n - 1; i > 0; i--) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        size_t j = r % i, t = next[i];
        next[i] = next[j], next[j] = t;
    }
    double start = now();
    while (now() < start + seconds) {
        double from = now();
        long steps = 0;
        while (now() - from < 0.25) {
            for (int k = 0; k < 20000; k++)
                p = next[p];
            for (int k = 0; k < 200000; k++)
                h = h * 6364136223846793005ull + k;
            steps += 20000;
        }
        printf("%.2f %.2f\n", from - start, steps / (now() - from) / 1e6);
        fflush(stdout);
    }
    return (int)((p + h) & 1);
}
