/* Runs files through a libFuzzer harness without libFuzzer: the committed
 * corpus becomes an ordinary test (any compiler, any sanitizer).
 * Usage: replay FILE_OR_DIR... */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dirent.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

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

/* The names in a folder (no dot files), sorted by strcmp so that every
 * platform replays in one order; NULL-terminated, the caller frees. NULL
 * when the folder cannot be read. (scandir is not in MinGW or MSVC.) */
static char **list_dir(const char *dir) {
    char **names = NULL;
    size_t n = 0, cap = 0;
#ifdef _WIN32
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s\\*", dir);
    WIN32_FIND_DATAA fd;
    HANDLE h = FindFirstFileA(pattern, &fd);
    if (h == INVALID_HANDLE_VALUE)
        return NULL;
    do {
        const char *name = fd.cFileName;
#else
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *name = e->d_name;
#endif
        if (name[0] == '.')
            continue;
        if (n + 1 >= cap) {
            cap = cap ? 2 * cap : 16;
            names = realloc(names, cap * sizeof *names);
        }
        names[n] = malloc(strlen(name) + 1);
        strcpy(names[n++], name);
#ifdef _WIN32
    } while (FindNextFileA(h, &fd));
    FindClose(h);
#else
    }
    closedir(d);
#endif
    if (!names)
        names = malloc(sizeof *names);
    qsort(names, n, sizeof *names, compare_names);
    names[n] = NULL;
    return names;
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
            char **names = list_dir(argv[i]);
            if (!names) {
                fprintf(stderr, "replay: cannot read folder %s\n", argv[i]);
                ++bad;
                continue;
            }
            for (char **name = names; *name; ++name) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], *name);
                bad += run_file(path);
                ++files;
                free(*name);
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
