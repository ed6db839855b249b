/* Runs files through a libFuzzer harness without libFuzzer: the committed
 * corpus becomes an ordinary test (any compiler, any sanitizer).
 * Usage: replay FILE_OR_DIR... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
        }
        const size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    int files = 0, bad = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file %s\n", argv[i]);
            ++bad;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            struct dirent **names;
            const int n = scandir(argv[i], &names, NULL, alphasort); /* a fixed order */
            for (int k = 0; k < n; ++k) {
                if (names[k]->d_name[0] != '.') {
                    char path[4096];
                    snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
                    bad += run_file(path);
                    ++files;
                }
                free(names[k]);
            }
            free(names);
        } else {
            bad += run_file(argv[i]);
            ++files;
        }
    }
    printf("replay: %d inputs, all passed their checks\n", files);
    return bad != 0 || files == 0;
}
